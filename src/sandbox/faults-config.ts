import * as z from 'zod';
import { OPERATIONS, type OperationName } from '../contract/index.js';

const OperationNameSchema = z.enum(Object.keys(OPERATIONS) as [OperationName, ...OperationName[]]);
/** Operations a rule applies to (contract operation names, e.g. createTransactionsBulk); absent = all. */
const Ops = z.array(OperationNameSchema).min(1).optional();
const Probability = z.number().min(0).max(1);

export const SCRIPTED_FAULTS = [
  '500',
  'reset',
  '429',
  'commit-then-500',
  'commit-then-reset',
  'delay',
  /** A gateway in front of the service failing (nothing applied): 502, 503, 504. */
  '502',
  '503',
  '504',
] as const;
export type ScriptedFault = (typeof SCRIPTED_FAULTS)[number];

/**
 * Fault configuration of the sandbox: the `--faults` file (YAML or JSON), `PUT /_sandbox/faults`
 * and `createFaultInjector`. Every random draw comes from a PRNG seeded with `seed`.
 */
export const FaultConfig = z.strictObject({
  /** Seed of the PRNG (mulberry32); same seed + same request sequence = same faults. */
  seed: z.int().default(1),
  /** Added to every matching request before it is answered: `ms` plus uniform [0, jitterMs). */
  latency: z
    .strictObject({
      ms: z.number().min(0).max(60_000),
      jitterMs: z.number().min(0).max(60_000).default(0),
      ops: Ops,
    })
    .optional(),
  /** 500 INTERNAL_ERROR before the handler with probability `rate`; a hit also fails the next burst-1. */
  fail500: z.strictObject({ rate: Probability, burst: z.int().min(1).default(1), ops: Ops }).optional(),
  /** Drop the connection before the handler (nothing applied) with probability `rate`. */
  reset: z.strictObject({ rate: Probability, ops: Ops }).optional(),
  /** After a write has been applied, answer 500 or drop the connection anyway (an ambiguous failure). */
  commitThenFail: z
    .strictObject({ rate: Probability, mode: z.enum(['500', 'reset']).default('500'), ops: Ops })
    .optional(),
  /** Per-partner token bucket; an empty bucket answers 429 RATE_LIMITED with Retry-After (whole seconds >= 1). */
  rateLimit: z
    .strictObject({ capacity: z.int().min(1), refillPerSecond: z.number().positive(), ops: Ops })
    .optional(),
  /**
   * Error answers that echo the request back, as careless or hostile servers do: `status` (400 by
   * default) with the request's form or JSON body and its Authorization header quoted in the message
   * (and, for API calls, in a cause). `on`: 'token' (the token endpoint, as an OAuth error) and/or
   * operation names. Checks that no secret reaches logs or reports in any encoding.
   */
  echo: z
    .strictObject({
      status: z.int().min(400).max(599).default(400),
      on: z.array(z.union([z.literal('token'), OperationNameSchema])).min(1),
    })
    .optional(),
  /**
   * Deterministic faults, applied in order: the head step hits the next `times` matching requests
   * (op, if given; commit-then-* only match writes that were applied). Takes precedence over rates.
   */
  script: z
    .array(
      z.strictObject({
        op: OperationNameSchema.optional(),
        fault: z.enum(SCRIPTED_FAULTS),
        times: z.int().min(1).default(1),
        /** Retry-After of a scripted 429. */
        retryAfterSeconds: z.int().min(1).default(1),
        /**
         * `delay`: hold the request this long before handling it, then handle (and commit) it even
         * if the client has given up and closed the connection meanwhile: a write that commits
         * after the client's headers timeout (issue 18 case 1).
         */
        delayMs: z.int().min(0).max(600_000).default(0),
      }),
    )
    .default([]),
});
export type FaultConfigInput = z.input<typeof FaultConfig>;
export type FaultConfig = z.output<typeof FaultConfig>;
export type ScriptStep = FaultConfig['script'][number];

/** Parses a fault config, naming `source` (a file, an endpoint) and every bad field in the error. */
export function parseFaultConfig(input: unknown, source: string): FaultConfig {
  const result = FaultConfig.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`invalid fault config ${source}:\n  ${problems.join('\n  ')}`);
}
