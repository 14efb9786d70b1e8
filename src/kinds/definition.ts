import type { z } from 'zod';
import type { MappedRecord, StatementAccount } from '../sources/record.js';
import type { ChunkSettings, WriteMode } from '../sync/chunk-settings.js';
import type { HeldVerdict } from '../sync/held-verdict.js';
import type { RecordOutcome } from '../sync/outcome.js';
import type { ChunkContext } from '../sync/ports.js';
import type { HeldScope } from '../sync/reconcile/held.js';
import type { BalanceCandidate, BalanceUpdate } from '../sync/report/statement-report.js';
import type { KindFields } from './field-spec.js';
import type { BankAccountRoutes, BankAccountTarget } from './transactions/bank-account-target.js';

/** The feed settings a kind reads; a Feed carries them all (a kind never imports the feed schema). */
export interface KindFeedOptions {
  /** The feed's customer account, or PARTNER_SCOPE (src/sync/ports.ts) when it names none. */
  accountId: number;
  mode: WriteMode;
  emptyCellClears: boolean;
  replaceCurrentValuesForThePeriod: boolean;
  bankAccount?: BankAccountTarget | undefined;
  bankAccounts?: BankAccountRoutes | undefined;
  /** Bank statement feeds: false leaves the target accounts' balances alone (default: kept up to date). */
  updateBalances?: boolean | undefined;
}

/** Feed keys that belong to kinds: a kind that lists one requires it, feeds of other kinds must not have it. */
export type KindFeedKey = 'bankAccount' | 'bankAccounts';

/** Where a record of a bank statement goes: a route to a target of its own, the feed's one, or nowhere (why). */
export type RouteVerdict = { route?: StatementAccount } | { rejected: string };

/**
 * Everything erp-bridge knows about one record kind, typed on its payload P (the contract's create
 * body). The mapper, the feed validation, the chunk payload schema, the strategies' dispatch and
 * the dry run all read it from the registry (registry.ts); nothing else lists kinds.
 */
export interface KindDefinition<P> {
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
  payloadDefaults?(feed: KindFeedOptions): Readonly<Record<string, string | number | boolean>>;
  /** Feed keys this kind's feeds must have (and others must not). */
  feedKeys?: readonly KindFeedKey[];
  /**
   * Where the feed sends a record: bank formats (their rows name the statement's account) by that
   * account (`account` null: the statement names none; undefined: the record is no statement's);
   * provisioning kinds by the customer account the record names (`payload`, account-route.ts).
   * Absent: every record goes to the feed's one target.
   */
  route?(feed: KindFeedOptions, account: StatementAccount | null | undefined, payload: P): RouteVerdict;
  /** The kind's part of the chunk settings, resolved once per file; a dry run writes nothing. */
  prepare?(feed: KindFeedOptions, dryRun: boolean, ctx: ChunkContext): Promise<Partial<ChunkSettings>>;
  /**
   * Bank statement formats: applies the newest booked balance of each statement account of a file
   * (its records settled) to the account the kind writes to; one update per target.
   */
  balances?(
    feed: KindFeedOptions,
    candidates: readonly BalanceCandidate[],
    dryRun: boolean,
    ctx: ChunkContext,
  ): Promise<BalanceUpdate[]>;
  /** Syncs one chunk: exactly one outcome per record (sync/strategies). */
  sync(
    records: readonly MappedRecord<P>[],
    settings: ChunkSettings,
    ctx: ChunkContext,
  ): Promise<RecordOutcome[]>;
  /**
   * `erp-bridge reconcile`: what the service holds of the feed's scope, read-only (a missing target
   * is an empty scope, never created). Absent: the kind cannot be reconciled.
   */
  reconcile?(feed: KindFeedOptions, ctx: ChunkContext): Promise<HeldScope>;
  /**
   * Dry runs: reads what the real run starts with and tells which records it would skip. Absent:
   * every record counts as would-send.
   */
  predict?(
    records: readonly MappedRecord<P>[],
    settings: ChunkSettings,
    ctx: ChunkContext,
  ): Promise<(record: MappedRecord<P>) => HeldVerdict>;
}
