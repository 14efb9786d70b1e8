import { z } from 'zod';
import { compiled, LIMITS } from '../src/contract/index.js';
import { KINDS, RECORD_KINDS, type RecordKind, type RecordOf } from '../src/kinds/registry.js';
import { BankAccountRoutes } from '../src/kinds/transactions/bank-account-target.js';
import { type Chunk, type ChunkOf, chunkOf } from '../src/sync/chunk.js';
import { WRITE_MODES } from '../src/sync/chunk-settings.js';
import type { RecordOutcome } from '../src/sync/outcome.js';
import { type ChunkExecution, runChunk } from '../src/sync/run-chunk.js';
import type { JobDefinition } from './job.js';

/** A record as it crossed a process boundary: its payload is checked against its kind's contract again. */
function recordsOf<K extends RecordKind>(kind: K): z.ZodType<RecordOf<K>[]> {
  return z
    .array(
      z.strictObject({
        file: z.string(),
        line: z.int().positive(),
        externalId: z.string().min(1),
        derivedId: z.boolean(),
        payload: KINDS[kind].create,
        amount: z.string().optional(),
        route: z
          .strictObject({
            account: z.string().min(1),
            currency: z.string().optional(),
            otherId: z.literal(true).optional(),
          })
          .optional(),
        booking: z
          .strictObject({
            reference: z.string().min(1),
            account: z.string(),
            amount: z.string(),
            date: z.string(),
            line: z.int().positive(),
            others: z.array(z.string().min(1)),
            // Signed decimal amounts separated by spaces (src/sources/booking.ts).
            split: z
              .string()
              .regex(/^-?[0-9]+(\.[0-9]+)?( -?[0-9]+(\.[0-9]+)?)*$/)
              .optional(),
          })
          .optional(),
      }),
    )
    .min(1)
    .max(LIMITS.bulkItems.max);
}

const chunkFields = {
  runId: z.string().min(1),
  feed: z.string().min(1),
  /** A customer account, or PARTNER_SCOPE (0) for a partner-scope kind. */
  accountId: z.int().nonnegative(),
  seq: z.int().positive(),
  settings: z.strictObject({
    bankAccountId: z.int().positive().optional(),
    bankAccounts: BankAccountRoutes.optional(),
    mode: z.enum(WRITE_MODES),
    emptyCellClears: z.boolean(),
    mappedFields: z.array(z.string()),
  }),
};

/** A chunk without its records: what a queued chunk job carries (src/fleet/chunk-records.ts). */
export const SyncChunkHeader = z.strictObject({
  ...chunkFields,
  kind: z.enum(RECORD_KINDS),
  /** How many records the chunk holds. */
  records: z.int().positive().max(LIMITS.bulkItems.max),
});
export type SyncChunkHeader = z.output<typeof SyncChunkHeader>;

function chunkSchemaOf<K extends RecordKind>(kind: K): z.ZodType<ChunkOf<K>> {
  return z.strictObject({ ...chunkFields, kind: z.literal(kind), records: recordsOf(kind) });
}

/**
 * One schema per registered kind, compiled the first time a chunk of that kind is checked: compiling
 * all of them when the module loads cost every CLI start about 65 ms (most runs meet one kind).
 */
const CHUNK_SCHEMAS = new Map<RecordKind, z.ZodType<ChunkOf<RecordKind>>>();
function chunkSchema(kind: RecordKind): z.ZodType<ChunkOf<RecordKind>> {
  let schema = CHUNK_SCHEMAS.get(kind);
  if (!schema) {
    schema = compiled(chunkSchemaOf(kind));
    CHUNK_SCHEMAS.set(kind, schema);
  }
  return schema;
}

/**
 * A whole chunk, checked by its kind's schema (the kind is read first, so a chunk is validated
 * once, against its own kind, and a kind missing from the registry cannot be missing here).
 */
export const SyncChunkPayload: z.ZodType<Chunk> = z
  .looseObject({ kind: z.enum(RECORD_KINDS) })
  .transform((input, ctx) => {
    const result = chunkSchema(input.kind).safeParse(input);
    if (result.success) return chunkOf(result.data);
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: issue.input });
    return z.NEVER;
  });

/**
 * Syncs one chunk that holds its tenant slot with its kind's strategy; its outcomes are stored
 * before it returns. Both runners call `run`, the core's one chunk step (src/sync/run-chunk.ts).
 */
export const syncChunkJob: JobDefinition<Chunk, ChunkExecution, RecordOutcome[]> = {
  name: 'sync-chunk',
  payload: SyncChunkPayload,
  run: runChunk,
};
