import * as z from 'zod';
import { OutcomeLine } from '../report-files/outcome-line.js';

// The edge between the report folders (files anyone may have edited, truncated or written with
// another version) and the pages: what the pages show, checked. Keys the console does not show are
// dropped here, so a page cannot print what it never reads.

const Count = z.int().nonnegative();
const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal amount');
const ControlTotal = z.object({ records: Count, amount: Decimal });
const OUTCOME_KEYS = ['created', 'updated', 'skipped', 'rejected', 'failed'] as const;

export const RUN_STATES = [
  'failed',
  'interrupted',
  'stopped',
  'completed_with_errors',
  'running',
  'completed',
] as const;
export type ConsoleRunState = (typeof RUN_STATES)[number];

/** A line of outcomes.ndjson (or the fleet's stored outcome) as the pages show it: no service id. */
export const ConsoleOutcome = OutcomeLine.omit({ serviceId: true });
export type ConsoleOutcome = z.output<typeof ConsoleOutcome>;

const StatementWarning = z.object({
  code: z.string(),
  line: z.int().optional(),
  statement: z.string().optional(),
  account: z.string().optional(),
  difference: z.string().optional(),
  message: z.string(),
});

export const ConsoleRun = z.object({
  runId: z.string(),
  feed: z.string(),
  kind: z.string(),
  accountId: z.int(),
  dryRun: z.boolean(),
  target: z.string().optional(),
  state: z.enum(RUN_STATES),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().optional(),
  durationMs: z.number().nonnegative().optional(),
  files: z.array(
    z.object({
      path: z.string(),
      records: Count,
      sheet: z.string().optional(),
      statements: z
        .object({ count: Count, unbalanced: Count, warnings: z.array(StatementWarning) })
        .optional(),
    }),
  ),
  counts: z.object(
    Object.fromEntries(OUTCOME_KEYS.map((o) => [o, Count])) as Record<
      (typeof OUTCOME_KEYS)[number],
      typeof Count
    >,
  ),
  controlTotals: z.object({
    ...(Object.fromEntries(OUTCOME_KEYS.map((o) => [o, ControlTotal])) as Record<
      (typeof OUTCOME_KEYS)[number],
      typeof ControlTotal
    >),
    all: ControlTotal,
  }),
  stopReason: z.object({ code: z.string(), message: z.string() }).optional(),
  noFile: z.string().optional(),
  waiting: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
});
export type ConsoleRun = z.output<typeof ConsoleRun>;

/** A reconcile's totals: kinds without amounts have none. */
const ReconcileTotal = z.object({ records: Count, amount: Decimal.optional() });

const VERDICT_KEYS = ['equal', 'missing', 'different', 'extra', 'duplicate', 'rejected'] as const;

export const ConsoleReconcileLine = z.object({
  verdict: z.enum(VERDICT_KEYS),
  file: z.string().optional(),
  line: z.int().optional(),
  externalId: z.string().nullable().optional(),
  serviceId: z.int().optional(),
  fields: z.array(z.object({ field: z.string(), source: z.unknown(), service: z.unknown() })).optional(),
  amount: z.string().optional(),
  message: z.string().optional(),
});
export type ConsoleReconcileLine = z.output<typeof ConsoleReconcileLine>;

export const ConsoleReconcile = z.object({
  reconcileId: z.string(),
  feed: z.string(),
  kind: z.string(),
  accountId: z.int(),
  scope: z.string().optional(),
  state: z.enum(['equal', 'differences', 'stopped']),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  files: z.array(z.string()),
  counts: z.object(
    Object.fromEntries(VERDICT_KEYS.map((v) => [v, Count])) as Record<
      (typeof VERDICT_KEYS)[number],
      typeof Count
    >,
  ),
  controlTotals: z.object({ source: ReconcileTotal, service: ReconcileTotal }),
});
export type ConsoleReconcile = z.output<typeof ConsoleReconcile>;

/** The first problem of a failed parse, in words a page can show (never the value itself). */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'summary'}: ${issue.message}` : 'not a summary';
}
