import * as z from 'zod';
import { WRITE_MODES } from '../src/config/write-mode.js';
import { type Checker, compiled, LIMITS } from '../src/contract/index.js';
import { KINDS, RECORD_KINDS, type RecordKind } from '../src/kinds/registry.js';
import type { RecordOf } from '../src/sources/record-of.js';
import { type Chunk, type ChunkOf, chunkOf } from '../src/sync/chunk.js';
import type { ChunkSettings } from '../src/sync/chunk-settings.js';
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
        // A database row's key (issue 29): only a database feed's chunks carry it.
        key: z.string().optional(),
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

/** The settings every kind's chunk carries; the kind's own part (`ofKind`) is added per kind. */
const genericSettings = {
  mode: z.enum(WRITE_MODES),
  emptyCellClears: z.boolean(),
  mappedFields: z.array(z.string()),
};
const GENERIC_SETTINGS = new Set([...Object.keys(genericSettings), 'ofKind']);

/**
 * A chunk queued by a version before kinds owned their settings carries the kind's keys beside
 * the generic ones (`bankAccountId` of a transactions chunk): they are the kind's part, checked by
 * the kind's strict schema as any, so a worker of this version finishes what an earlier one queued
 * (docs/fleet.md, "Upgrading a fleet"). A chunk with `ofKind` is this version's and is left as it is.
 */
function kindPartOfEarlierVersion(settings: unknown): unknown {
  if (typeof settings !== 'object' || settings === null || 'ofKind' in settings) return settings;
  const generic: Record<string, unknown> = {};
  const ofKind: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings))
    (GENERIC_SETTINGS.has(key) ? generic : ofKind)[key] = value;
  return Object.keys(ofKind).length === 0 ? settings : { ...generic, ofKind };
}

/** The fields of a chunk of `kind` besides its records: its settings' own part is checked by the kind. */
function chunkFieldsOf(kind: RecordKind) {
  return {
    runId: z.string().min(1),
    feed: z.string().min(1),
    /** A customer account, or PARTNER_SCOPE (0) for a partner-scope kind. */
    accountId: z.int().nonnegative(),
    seq: z.int().positive(),
    settings: z.preprocess(
      kindPartOfEarlierVersion,
      z.strictObject({
        ...genericSettings,
        ofKind: KINDS[kind].chunk.optional(),
      }) satisfies z.ZodType<ChunkSettings>,
    ),
  };
}

/** A chunk without its records: what a queued chunk job carries (src/fleet/chunk-records.ts). */
export interface SyncChunkHeader {
  runId: string;
  feed: string;
  kind: RecordKind;
  accountId: number;
  seq: number;
  settings: ChunkSettings;
  /** How many records the chunk holds. */
  records: number;
}

function headerSchemaOf(kind: RecordKind): z.ZodType<SyncChunkHeader> {
  return z.strictObject({
    ...chunkFieldsOf(kind),
    kind: z.literal(kind),
    records: z.int().positive().max(LIMITS.bulkItems.max),
  });
}

function chunkSchemaOf<K extends RecordKind>(kind: K): z.ZodType<ChunkOf<K>> {
  return z.strictObject({ ...chunkFieldsOf(kind), kind: z.literal(kind), records: recordsOf(kind) });
}

/**
 * One schema per registered kind, built the first time a chunk of that kind is checked (and compiled
 * once it has checked many: contract/compiled.ts): compiling all of them when the module loads cost
 * every CLI start about 65 ms (most runs meet one kind).
 */
function perKind<T>(
  schemaOf: (kind: RecordKind) => z.ZodType<T>,
): (kind: RecordKind) => Checker<z.ZodType<T>> {
  const schemas = new Map<RecordKind, Checker<z.ZodType<T>>>();
  return (kind) => {
    let schema = schemas.get(kind);
    if (!schema) {
      schema = compiled(schemaOf(kind));
      schemas.set(kind, schema);
    }
    return schema;
  };
}
const chunkSchema = perKind<ChunkOf<RecordKind>>(chunkSchemaOf);
const headerSchema = perKind(headerSchemaOf);

/**
 * A payload checked by its kind's schema: the kind is read first, so it is validated once, against
 * its own kind (settings included), and a kind missing from the registry cannot be missing here.
 */
function byKind<T>(schemaOf: (kind: RecordKind) => Checker<z.ZodType<T>>): z.ZodType<T> {
  return z.looseObject({ kind: z.enum(RECORD_KINDS) }).transform((input, ctx) => {
    const result = schemaOf(input.kind).safeParse(input);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: issue.input });
    return z.NEVER;
  });
}

/** A chunk without its records, checked by its kind (what a queued chunk job carries). */
export const SyncChunkHeader: z.ZodType<SyncChunkHeader> = byKind(headerSchema);

/** A whole chunk, checked by its kind's schema. */
export const SyncChunkPayload: z.ZodType<Chunk> = byKind(chunkSchema).transform(chunkOf);

/**
 * Syncs one chunk that holds its tenant slot with its kind's strategy; its outcomes are stored
 * before it returns. Both runners call `run`, the core's one chunk step (src/sync/run-chunk.ts).
 */
export const syncChunkJob: JobDefinition<Chunk, ChunkExecution, RecordOutcome[]> = {
  name: 'sync-chunk',
  payload: SyncChunkPayload,
  run: runChunk,
};
