import * as z from 'zod';
import type { WriteMode } from '../config/write-mode.js';
import type { KindFields } from '../sources/field-spec.js';
import type { ReportSettler } from '../sources/format-report.js';
import type { MappedRecord, StatementAccount } from '../sources/record.js';
import type { KindChunkSettings } from '../sync/chunk-settings.js';
import type { HeldVerdict } from '../sync/held-verdict.js';
import type { RecordOutcome } from '../sync/outcome.js';
import type { ChunkContext } from '../sync/ports.js';
import type { HeldScope } from '../sync/reconcile/held.js';

/**
 * The feed settings every kind may read; a kind's own keys (KindDefinition.feedKeys) come on top,
 * typed by the kind (a kind never imports the feed schema, the feed schema never imports a kind).
 */
export interface KindFeedOptions {
  /** The feed's customer account, or PARTNER_SCOPE (src/config/partner-scope.ts) when it names none. */
  accountId: number;
  mode: WriteMode;
  emptyCellClears: boolean;
  replaceCurrentValuesForThePeriod: boolean;
}

/** A kind without feed keys or chunk settings of its own. */
export type NoKindSettings = Record<never, never>;

/** The `chunk` of a kind whose chunks carry nothing of their own: an empty object, strictly. */
export const NO_CHUNK_SETTINGS: z.ZodType<NoKindSettings> = z.strictObject({});

/**
 * One feed key a kind owns: its value's schema (the key is optional in every feed; `required` and
 * `insteadOf` say when a feed of the kind must have it), its docs row (docs/feeds.md's reference
 * table, checked by test/unit/kinds/registry.test.ts) and the words of its messages.
 */
export interface KindFeedKey<T> {
  schema: z.ZodType<T>;
  docs: {
    /** The formats the key is for, shown after the key ("mt940, camt"). */
    formats?: string;
    type: string;
    default: string;
    text: string;
  };
  /** What it is, for "only <kinds> feeds have <what>". */
  what: string;
  /** A feed of the kind must have it (unless a key `insteadOf` it is given): what it is, for the message. */
  required?: string;
  /** The (required) key this one may replace, never join. */
  insteadOf?: string;
  /** Only for formats whose rows name their statement's account (a bank format's route cells). */
  perStatement?: true;
  /**
   * The one message for a key where it does not belong (another kind's feed, or a format without
   * statements), instead of the two generic ones.
   */
  misplaced?(kind: string, format: string): string;
}

/** A kind's feed keys, one per key of its feed settings F (declaration order is the docs' order). */
export type KindFeedKeys<F> = { readonly [K in keyof F]-?: KindFeedKey<Exclude<F[K], undefined>> };

/** Where a record of a bank statement goes: a route to a target of its own, the feed's one, or nowhere (why). */
export type RouteVerdict = { route?: StatementAccount } | { rejected: string };

/**
 * Everything erp-bridge knows about one record kind, typed on its payload P (the contract's create
 * body). The mapper, the feed validation, the chunk payload schema, the strategies' dispatch and
 * the dry run all read it from the registry (registry.ts); nothing else lists kinds.
 */
export interface KindDefinition<P, F extends object = NoKindSettings, C extends object = NoKindSettings> {
  /** One line for the docs (docs/feeds.md). */
  description: string;
  /** The service fields a mapping may fill. */
  fields: KindFields;
  /** The create body each record is validated against before it leaves the process. */
  create: z.ZodType<P>;
  /** The field that carries the record's amount, for control totals (none: no totals). */
  amountField?: string;
  /**
   * The fields a version-2 derived identity is built from, sorted (docs/identity.md): what a record
   * *is*, not what a user may later re-map or what changes over a record's life (a category, an
   * invoice's status or open amount). The other mapped fields are still sent; they just do not
   * name the record.
   */
  identityFields: readonly string[];
  /** False: the API has no externalId for the kind; the ID only names the record in reports. */
  sendsExternalId: boolean;
  /**
   * 'partner': the kind's records are the partner's own (customer accounts), written without
   * X-Account-Id; its feeds name no `accountId` and its chunks run under PARTNER_SCOPE
   * (src/sync/ports.ts). Absent: records of the feed's customer account.
   */
  scope?: 'partner';
  /** Payload values the feed supplies when the mapping does not name the field. */
  payloadDefaults?(feed: KindFeedOptions & F): Readonly<Record<string, string | number | boolean>>;
  /**
   * The kind's own feed keys (F): the feed schema (src/config/feed.ts) takes them from the registry,
   * and feeds of other kinds must not have them.
   */
  feedKeys?: KindFeedKeys<F>;
  /**
   * The currency a feed pins for its records, when neither the record nor its statement names one
   * (the fraction-digits check of amounts).
   */
  pinnedCurrency?(feed: KindFeedOptions & F): string | undefined;
  /** Checks of the kind's feed keys that need the whole loaded feed; `report` adds an issue at `path`. */
  checkFeed?(
    feed: KindFeedOptions & F,
    report: (path: readonly (string | number)[], message: string) => void,
  ): void;
  /**
   * What the kind's chunks carry besides the generic settings (ChunkSettings.ofKind): strict, so a
   * chunk that crossed a process boundary is checked by its own kind; what `prepare` resolves.
   */
  chunk: z.ZodType<C>;
  /**
   * Where the feed sends a record: bank formats (their rows name the statement's account) by that
   * account (`account` null: the statement names none; undefined: the record is no statement's);
   * provisioning kinds by the customer account the record names (`payload`, account-route.ts).
   * Absent: every record goes to the feed's one target.
   */
  route?(feed: KindFeedOptions & F, account: StatementAccount | null | undefined, payload: P): RouteVerdict;
  /** The kind's part of the chunk settings, resolved once per file; a dry run writes nothing. Absent: C is empty. */
  prepare?(feed: KindFeedOptions & F, dryRun: boolean, ctx: ChunkContext): Promise<C>;
  /**
   * What the kind does with what a format reports of a file (sources/format-report.ts) once the
   * file's records are settled: bank statement formats' balances applied to the accounts the kind
   * writes to, one update per target. Absent: the report is listed as read.
   */
  settles?(feed: KindFeedOptions & F, dryRun: boolean, ctx: ChunkContext): ReportSettler;
  /** Syncs one chunk: exactly one outcome per record (sync/strategies). */
  sync(
    records: readonly MappedRecord<P>[],
    settings: KindChunkSettings<C>,
    ctx: ChunkContext,
  ): Promise<RecordOutcome[]>;
  /**
   * `erp-bridge reconcile`: what the service holds of the feed's scope, read-only (a missing target
   * is an empty scope, never created). Absent: the kind cannot be reconciled.
   */
  reconcile?(feed: KindFeedOptions & F, ctx: ChunkContext): Promise<HeldScope>;
  /**
   * Dry runs: reads what the real run starts with and tells which records it would skip. Absent:
   * every record counts as would-send.
   */
  predict?(
    records: readonly MappedRecord<P>[],
    settings: KindChunkSettings<C>,
    ctx: ChunkContext,
  ): Promise<(record: MappedRecord<P>) => HeldVerdict>;
}
