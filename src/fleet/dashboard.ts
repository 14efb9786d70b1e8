import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { FleetQueues } from './queues.js';

/**
 * The fleet's queues as bull-board shows them (the admin server's /queues). Here because
 * only src/fleet knows BullMQ. With admin credentials an operator may retry or remove jobs;
 * without them (`readOnly`) the board hides those buttons, and the admin server refuses the
 * changes themselves (the buttons are a convenience, not the guard).
 */
export function dashboardQueues(queues: FleetQueues, readOnly = false): BullMQAdapter[] {
  return queues.all.map((queue) => new BullMQAdapter(queue, { readOnlyMode: readOnly }));
}
