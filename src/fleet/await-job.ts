import type { Queue } from 'bullmq';

export interface AwaitOptions {
  pollMs?: number;
  /** None by default: a large feed takes minutes, and without a worker the caller waits (Ctrl-C). */
  timeoutMs?: number;
}

/**
 * Polls until `result` answers (what the job stores when it is done: a summary), or the job of
 * `jobId` failed for good: then BullMQ's reason. Polling, not QueueEvents: one more blocking
 * connection per waiting CLI is not worth it for a wait of seconds to minutes.
 */
export async function awaitJob<T>(
  queue: Queue,
  jobId: string,
  result: () => Promise<T | undefined>,
  options: AwaitOptions = {},
): Promise<{ done: T } | { failed: string }> {
  const deadline =
    options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
  for (;;) {
    const done = await result();
    if (done !== undefined) return { done };
    if ((await queue.getJobState(jobId)) === 'failed') {
      const job = await queue.getJob(jobId);
      return { failed: job?.failedReason || `job ${jobId} of queue ${queue.name} failed` };
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish within ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
  }
}
