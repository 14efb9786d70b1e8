import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { FleetQueues } from './queues.js';

/**
 * The fleet's three queues as bull-board shows them (the admin server's /queues). Here because
 * only src/queue knows BullMQ. Not read-only: an operator may retry or remove jobs, which is why
 * the dashboard needs credentials whenever it is reachable beyond loopback.
 */
export function dashboardQueues(queues: FleetQueues): BullMQAdapter[] {
  return queues.all.map((queue) => new BullMQAdapter(queue));
}
