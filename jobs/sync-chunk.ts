import { z } from 'zod';
import { RECORD_KINDS } from '../src/config/kinds.js';
import {
  BankAccountCreate,
  InvoiceCreate,
  LIMITS,
  PlanRequest,
  TransactionInput,
} from '../src/contract/index.js';
import type { Chunk } from '../src/sync/chunk.js';
import type { RecordOutcome } from '../src/sync/outcome.js';
import type { CreateClaims, SyncClient } from '../src/sync/ports.js';
import { syncChunk } from '../src/sync/sync-chunk.js';
import type { Clock } from '../src/time/clock.js';
import type { JobContext, JobDefinition } from './job.js';

/** A record as it crossed a process boundary: its payload is checked against the contract again. */
function recordsOf<T extends z.ZodType>(payload: T) {
  return z
    .array(
      z.strictObject({
        file: z.string(),
        line: z.int().positive(),
        externalId: z.string().min(1),
        derivedId: z.boolean(),
        payload,
        amount: z.string().optional(),
      }),
    )
    .min(1)
    .max(LIMITS.bulkItems.max);
}

const chunkFields = {
  runId: z.string().min(1),
  feed: z.string().min(1),
  accountId: z.int().positive(),
  seq: z.int().positive(),
  settings: z.strictObject({
    bankAccountId: z.int().positive().optional(),
    mode: z.enum(['upsert', 'insert', 'update']),
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

export const SyncChunkPayload = z.discriminatedUnion('kind', [
  z.strictObject({ ...chunkFields, kind: z.literal('transactions'), records: recordsOf(TransactionInput) }),
  z.strictObject({ ...chunkFields, kind: z.literal('invoices'), records: recordsOf(InvoiceCreate) }),
  z.strictObject({ ...chunkFields, kind: z.literal('plans'), records: recordsOf(PlanRequest) }),
  z.strictObject({ ...chunkFields, kind: z.literal('bank-accounts'), records: recordsOf(BankAccountCreate) }),
]);

export interface SyncChunkContext extends JobContext {
  client: SyncClient;
  clock: Clock;
  /** Serialises creates of one (account, externalId) across runs and workers. */
  claims?: CreateClaims;
}

/** Syncs one chunk with its kind's strategy; its outcomes are stored before it returns. */
export const syncChunkJob: JobDefinition<Chunk, SyncChunkContext, RecordOutcome[]> = {
  name: 'sync-chunk',
  payload: SyncChunkPayload,
  run: (chunk, ctx) =>
    syncChunk(chunk, ctx.run, {
      client: ctx.client,
      clock: ctx.clock,
      logger: ctx.logger,
      accountId: chunk.accountId,
      signal: ctx.signal,
      ...(ctx.claims ? { claims: ctx.claims } : {}),
    }),
};
