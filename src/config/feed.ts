import * as z from 'zod';
import {
  KIND_FEED_KEYS,
  KINDS,
  type KindFeedSettings,
  RECORD_KINDS,
  type RecordKind,
} from '../kinds/registry.js';
import { FieldMapping, type FieldMappings, overDefaults } from '../sources/field-mapping.js';
import { ACCOUNT_FIELD } from '../sources/field-spec.js';
import { defaultMappingOf, routeCellsOf, Source } from '../sources/formats/registry.js';
import { RowFilter } from '../sources/row-filter.js';
import { PARTNER_SCOPE } from './partner-scope.js';
import { ReportSettings } from './report-format.js';
import { WRITE_MODES } from './write-mode.js';

/** The feed's `source`: its keys depend on `source.format` (src/sources/formats/registry.ts). */
export { Source };

/**
 * The keys every feed may have, in two parts: the kinds' own keys (KIND_FEED_KEYS) stand between
 * them in FeedKeys, where a feed names its target, so messages keep the order of a feed file.
 */
/** A feed's name (it keys runs, schedules and report files): `erp-bridge init` checks `--name` by it. */
export const FEED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const HEAD_KEYS = {
  name: z.string().regex(FEED_NAME, 'expected letters, digits, ".", "_" or "-"'),
  /**
   * The customer account; partner-scope kinds (accounts) have none (PARTNER_SCOPE), nor need feeds
   * whose records name their account (users, categories: mapping.accountExternalId).
   */
  accountId: z.int().positive().optional(),
  /**
   * The customer account by its externalId (as an accounts feed provisions it) instead of
   * `accountId`: resolved to the account's id once per run, where the run starts
   * (src/sync/feed-account.ts), so a feed can target a tenant provisioned by the same sync.
   */
  accountExternalId: z.string().min(1).optional(),
  kind: z.enum(RECORD_KINDS),
  source: Source,
  /** Optional when the source format brings a default mapping for the feed's kind (merged field by field). */
  mapping: z.record(z.string(), FieldMapping).optional(),
};

const TAIL_KEYS = {
  /** invoices and bank-accounts: upsert (default), insert (create only) or update (update only). */
  mode: z.enum(WRITE_MODES).default('upsert'),
  /** invoices/bank-accounts updates: whether an empty source cell clears the service's value. */
  emptyCellClears: z.boolean().default(false),
  /** plans: replace the period's value (idempotent reruns) rather than add to it. */
  replaceCurrentValuesForThePeriod: z.boolean().default(true),
  /** Rows to leave out on purpose (e.g. pending bookings); reported as skipped with the reason. */
  exclude: z.array(RowFilter).default([]),
  schedule: z.string().optional(),
  /**
   * The fleet's scheduler polls the feed's location every `everySeconds` and enqueues the files that
   * have arrived (beside or instead of `schedule`).
   */
  watch: z.strictObject({ everySeconds: z.int().min(1).max(86_400) }).optional(),
  timezone: z.string().default('UTC'),
  concurrency: z.int().min(1).max(64).default(2),
  /** How IDs are derived for records without a source ID (docs/identity.md); 1 keeps pre-2026-11 IDs. */
  identityScheme: z.literal([1, 2]).default(2),
  /** What the run's report folder holds besides outcomes.csv/.ndjson (report-format.ts); flag and env win. */
  report: ReportSettings.optional(),
};
/** The generic keys' schema type (the schema itself is FeedKeys). */
type GenericKeys = ReturnType<typeof z.strictObject<typeof HEAD_KEYS & typeof TAIL_KEYS>>;

/**
 * Every feed key: the generic ones and, optional in every feed, each kind's own (the kinds' checks
 * say which feeds must or must not have them). The kinds' keys are composed at run time from the
 * registry, which TypeScript cannot fold into one object type: KindFeedSettings is that type, read
 * from the same registry.
 */
const FeedKeys = z.strictObject({
  ...HEAD_KEYS,
  ...Object.fromEntries(KIND_FEED_KEYS.map(({ key, spec }) => [key, spec.schema.optional()])),
  ...TAIL_KEYS,
}) as unknown as z.ZodType<
  z.output<GenericKeys> & KindFeedSettings,
  z.input<GenericKeys> & Partial<Record<keyof KindFeedSettings, unknown>>
>;
type LoadedKeys = z.output<typeof FeedKeys>;

/** A loaded feed's keys with its mapping complete: the format's default mapping merged in. */
type MergedFeed = Omit<LoadedKeys, 'mapping' | 'accountId'> & {
  mapping: FieldMappings;
  /**
   * The feed's customer account, or PARTNER_SCOPE for a partner-scope kind, or for a feed that
   * names its account by `accountExternalId` until its run resolves it (resolveFeedAccount).
   */
  accountId: number;
};

/**
 * The feed's account: refused for the partner's own kinds; required for a customer account's kinds
 * unless the records name their account (ACCOUNT_FIELD mapped, account-route.ts).
 */
function accountOf(keys: LoadedKeys, mapping: FieldMappings, ctx: z.RefinementCtx): number {
  const partner = KINDS[keys.kind].scope === 'partner';
  const perRecord = ACCOUNT_FIELD in mapping && ACCOUNT_FIELD in KINDS[keys.kind].fields;
  for (const key of ['accountId', 'accountExternalId'] as const)
    if (partner && keys[key] !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `an ${keys.kind} feed writes the partner's own records, in no customer account: remove ${key}`,
      });
  if (keys.accountId !== undefined && keys.accountExternalId !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['accountExternalId'],
      message: 'give either accountId or accountExternalId (the same account by its externalId), not both',
    });
  if (!partner && !perRecord && keys.accountId === undefined && keys.accountExternalId === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['accountId'],
      message: `required for kind ${keys.kind}: the customer account (X-Account-Id) every record goes to, or accountExternalId (its externalId)${ACCOUNT_FIELD in KINDS[keys.kind].fields ? `, unless the records name theirs (mapping.${ACCOUNT_FIELD})` : ''}`,
    });
  return keys.accountId ?? PARTNER_SCOPE;
}

/** The feed's mapping over the format's default mapping for its kind; undefined when there is neither. */
function mergedMapping(feed: LoadedKeys): FieldMappings | undefined {
  const defaults = defaultMappingOf(feed.source.format, feed.kind);
  return defaults === undefined ? feed.mapping : overDefaults(defaults, feed.mapping);
}

/** The checks of a feed that need several keys at once (on the merged mapping). */
function checkFeed(feed: MergedFeed, ctx: z.RefinementCtx): void {
  const { fields } = KINDS[feed.kind];
  for (const field of Object.keys(feed.mapping)) {
    if (!(field in fields)) {
      ctx.addIssue({
        code: 'custom',
        path: ['mapping', field],
        message: `unknown field for kind ${feed.kind}; expected one of: ${Object.keys(fields).join(', ')}`,
      });
    }
  }
  for (const [field, spec] of Object.entries(fields)) {
    if (spec.required && !(field in feed.mapping)) {
      ctx.addIssue({
        code: 'custom',
        path: ['mapping', field],
        message: `required for kind ${feed.kind}: map it to a column or a constant`,
      });
    }
  }
  checkKindKeys(feed, ctx);
  // A watch lists a location for files that arrived; a database has rows, read on `schedule`.
  if (feed.watch !== undefined && feed.source.format === 'database')
    ctx.addIssue({
      code: 'custom',
      path: ['watch'],
      message:
        'a database source has no files to watch for: read it on a schedule (e.g. schedule: "*/5 * * * *")',
    });
  const kind = KINDS[feed.kind];
  kind.checkFeed?.(feed, (path, message) => ctx.addIssue({ code: 'custom', path: [...path], message }));
}

/**
 * The kinds' own keys: a key a kind owns is required by its `required` (unless a key `insteadOf`
 * it is given), refused beside the key it replaces, and refused in other kinds' feeds and, when
 * `perStatement`, in feeds of formats whose rows name no statement account.
 */
function checkKindKeys(feed: MergedFeed, ctx: z.RefinementCtx): void {
  const keys: Readonly<Record<string, unknown>> = feed;
  const given = (key: string) => keys[key] !== undefined;
  for (const { key, owners, spec } of KIND_FEED_KEYS) {
    const owned = owners.includes(feed.kind);
    const present = given(key);
    const statements = routeCellsOf(feed.source.format) !== undefined;
    const replaced = KIND_FEED_KEYS.some((other) => other.spec.insteadOf === key && given(other.key));
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (present && spec.misplaced && (!owned || (spec.perStatement && !statements))) {
      issue(spec.misplaced(feed.kind, feed.source.format));
      continue;
    }
    if (owned && present && spec.insteadOf !== undefined && given(spec.insteadOf))
      issue(`give either ${spec.insteadOf} or ${key}, not both`);
    if (owned && present && spec.perStatement && !statements)
      issue(
        `a ${feed.source.format} file names no statement account: give ${spec.insteadOf ?? 'another key'} instead (${key} is for bank statement formats)`,
      );
    if (owned && !present && spec.required !== undefined && replaced === false)
      issue(`required for kind ${feed.kind}: ${spec.required}`);
    if (!owned && present) issue(`only ${owners.join(', ')} feeds have ${spec.what}`);
  }
}

export const Feed = FeedKeys.transform((keys, ctx): MergedFeed => {
  const mapping = mergedMapping(keys);
  if (mapping === undefined) {
    // Worded as zod words a missing key: a format without a default mapping needs the section.
    ctx.addIssue({
      code: 'custom',
      path: ['mapping'],
      message: 'Invalid input: expected record, received undefined',
    });
    return z.NEVER;
  }
  const feed = { ...keys, mapping, accountId: accountOf(keys, mapping, ctx) };
  checkFeed(feed, ctx);
  return feed;
});
export type Feed = z.output<typeof Feed>;
/** A feed of one kind: its records are RecordOf<K>. */
export type FeedOf<K extends RecordKind> = Feed & { kind: K };
export type FeedInput = z.input<typeof Feed>;
