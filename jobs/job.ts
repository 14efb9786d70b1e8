import type { Logger } from 'pino';
import type { z } from 'zod';
import { compiled } from '../src/contract/index.js';
import type { RunHandle } from '../src/sync/run-handle.js';

/**
 * What every job gets, so it runs the same in either runner: a scoped logger, an abort signal, and
 * its run (where outcomes are stored).
 */
export interface JobContext {
  logger: Logger;
  signal?: AbortSignal;
  run: RunHandle;
}

/**
 * A unit of work: a payload schema and a handler. Executors (the in-process runner, the BullMQ
 * worker) parse payloads that crossed a process boundary with `payload` before calling `run`;
 * the in-process runner hands over payloads it built itself, already typed.
 */
export interface JobDefinition<P, C extends JobContext, R> {
  name: string;
  payload: z.ZodType<P>;
  run(payload: P, ctx: C): Promise<R>;
}

/** Parses an unknown payload at the job boundary, naming the job and the fields at fault. */
export function parsePayload<P>(job: { name: string; payload: z.ZodType<P> }, input: unknown): P {
  const result = compiled(job.payload).safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`);
  throw new Error(`invalid ${job.name} payload: ${problems.join('; ')}`);
}
