import type { FleetQueues } from './queues.js';

/**
 * The states that say how much work waits or is stuck; completed jobs are left out (chunk jobs are
 * removed on completion, the others kept by count, so their number says nothing about load).
 */
export const DEPTH_STATES = [
  'waiting',
  'prioritized',
  'delayed',
  'waiting-children',
  'active',
  'failed',
] as const;

export interface QueueDepth {
  queue: string;
  state: (typeof DEPTH_STATES)[number];
  jobs: number;
}

/** Jobs per queue and state, for every queue of the fleet. */
export async function readQueueDepth(queues: FleetQueues): Promise<QueueDepth[]> {
  const perQueue = await Promise.all(
    queues.all.map(async (queue) => {
      const counts = await queue.getJobCounts(...DEPTH_STATES);
      return DEPTH_STATES.map((state) => ({ queue: queue.name, state, jobs: counts[state] ?? 0 }));
    }),
  );
  return perQueue.flat();
}
