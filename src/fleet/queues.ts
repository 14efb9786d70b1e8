import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChunkJobData } from './chunk-job.js';
import type { ImportJobData } from './import-job.js';
import { QUEUES } from './keys.js';
import type { ReconcileJobData } from './reconcile-job.js';

export interface TickJobData {
  /** Absolute path of the feed file whose schedule fired. */
  feedFile: string;
}

const DAY_S = 86_400;

/**
 * The fleet's queues with their job hygiene: finished jobs are removed by count and age,
 * chunk jobs as soon as they complete (their records are in the run's report by then), stack
 * traces are short and the event streams capped, so Redis does not grow with the job history.
 * `onError` hears lost connections (ioredis reconnects by itself); without it BullMQ prints each
 * one raw on stderr.
 */
export function openQueues(
  connection: Redis,
  prefix: string,
  onError?: (error: Error, queue: string) => void,
) {
  const base = { connection, prefix, streams: { events: { maxLen: 1000 } } };
  const ticks = new Queue<TickJobData>(QUEUES.ticks, {
    ...base,
    defaultJobOptions: {
      removeOnComplete: { count: 200 },
      removeOnFail: { count: 200 },
      stackTraceLimit: 3,
    },
  });
  const imports = new Queue<ImportJobData>(QUEUES.imports, {
    ...base,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: { count: 1000, age: 7 * DAY_S },
      removeOnFail: { count: 1000, age: 30 * DAY_S },
      stackTraceLimit: 3,
    },
  });
  const chunks = new Queue<ChunkJobData>(QUEUES.chunks, {
    ...base,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: true,
      removeOnFail: { count: 5000, age: 7 * DAY_S },
      stackTraceLimit: 3,
    },
  });
  // Read-only jobs: a replay starts the comparison over (reconcile-store.ts), so retrying is safe.
  const reconciles = new Queue<ReconcileJobData>(QUEUES.reconciles, {
    ...base,
    defaultJobOptions: {
      attempts: 2,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: { count: 200, age: 7 * DAY_S },
      removeOnFail: { count: 200, age: 30 * DAY_S },
      stackTraceLimit: 3,
    },
  });
  /** Every queue of the fleet, for whatever treats them alike (errors, close, dashboard, depth). */
  const all = [ticks, imports, chunks, reconciles] as const;
  if (onError) for (const queue of all) queue.on('error', (error) => onError(error, queue.name));
  return {
    ticks,
    imports,
    chunks,
    reconciles,
    all,
    close: () => Promise.all(all.map((queue) => queue.close())).then(() => undefined),
  };
}
export type FleetQueues = ReturnType<typeof openQueues>;
