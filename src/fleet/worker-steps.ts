import { type Job, WaitingError } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { parsePayload } from '../../jobs/job.js';
import { JobRefused } from './feed-ref.js';

/** A payload that does not parse (e.g. a feed definition instead of a reference) can never run. */
export function refusedUnlessValid<P>(job: { name: string; payload: z.ZodType<P> }, input: unknown): P {
  try {
    return parsePayload(job, input);
  } catch (error) {
    throw new JobRefused((error as Error).message);
  }
}

/**
 * The worker is shutting down past its grace period: the job goes back to the queue, released,
 * not failed (a failure would use up one of its attempts). Should the move fail, the lock expires
 * and the stalled-job check hands it on. `what` names the job in the log line ("import").
 */
export async function releaseToAnotherWorker(
  job: Job,
  token: string | undefined,
  logger: Logger,
  what: string,
): Promise<never> {
  logger.warn(`worker shutting down: ${what} released to another worker`);
  if (token) await job.moveToWait(token).catch(() => undefined);
  throw new WaitingError();
}
