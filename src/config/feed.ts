import { z } from 'zod';
import type { KindFeedKey } from '../kinds/definition.js';
import { ACCOUNT_FIELD } from '../kinds/field-spec.js';
import { KINDS, RECORD_KINDS, type RecordKind } from '../kinds/registry.js';
import { BankAccountRoutes, BankAccountTarget } from '../kinds/transactions/bank-account-target.js';
import { defaultMappingOf, routeCellsOf, Source } from '../sources/formats/registry.js';
import { accountKey } from '../sources/statement-account.js';
import { WRITE_MODES } from '../sync/chunk-settings.js';
import { PARTNER_SCOPE } from '../sync/ports.js';
import { columnRef, FieldMapping, type FieldMappings, overDefaults } from './field-mapping.js';

const RowFilter = z.strictObject({
  column: columnRef,
  equals: z.string().optional(),
  matches: z.string().optional(),
});

/** The feed's `source`: its keys depend on `source.format` (src/sources/formats/registry.ts). */
export { Source };

/**
 * Feed keys that belong to kinds (KindDefinition.feedKeys): what they are, for the messages. A key
 * with `insteadOf` may replace that (required) key, never join it; one `perStatement` needs a
 * format whose rows name their statement's account (a bank format's route cells).
 */
interface KindFeedKeyText {
  key: KindFeedKey;
  required: string;
  what: string;
  insteadOf?: KindFeedKey;
  perStatement?: true;
}

const KIND_FEED_KEYS: readonly KindFeedKeyText[] = [
  {
    key: 'bankAccount',
    required: 'the target bank account (externalId, accountName, bankName, ...)',
    what: 'a target bank account',
  },
  {
    key: 'bankAccounts',
    required: 'the target bank accounts per statement account',
    what: 'target bank accounts per statement account',
    insteadOf: 'bankAccount',
    perStatement: true,
  },
];

const FeedKeys = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected letters, digits, ".", "_" or "-"'),
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
  bankAccount: BankAccountTarget.optional(),
  /** Bank formats: a target per statement account (IBAN, Othr/Id, :25:), or `auto` (one per IBAN). */
  bankAccounts: BankAccountRoutes.optional(),
  /** Bank statement formats: false leaves the target accounts' balances as they are (default: updated). */
  updateBalances: z.boolean().optional(),
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
});

/** A loaded feed's keys with its mapping complete: the format's default mapping merged in. */
type MergedFeed = Omit<z.output<typeof FeedKeys>, 'mapping' | 'accountId'> & {
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
function accountOf(keys: z.output<typeof FeedKeys>, mapping: FieldMappings, ctx: z.RefinementCtx): number {
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
function mergedMapping(feed: z.output<typeof FeedKeys>): FieldMappings | undefined {
  const defaults = defaultMappingOf(feed.source.format, feed.kind);
  return defaults === undefined ? feed.mapping : overDefaults(defaults, feed.mapping);
}

/** Two `bankAccounts` keys that name one account (`DE89 3704…` and `DE893704…`) would make the choice arbitrary. */
function checkRoutes(feed: MergedFeed, ctx: z.RefinementCtx): void {
  if (feed.bankAccounts === undefined || feed.bankAccounts === 'auto') return;
  const seen = new Map<string, string>();
  for (const id of Object.keys(feed.bankAccounts)) {
    const first = seen.get(accountKey(id));
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bankAccounts', id],
        message: `names the same account as "${first}" (accounts are compared without spaces, in upper case): keep one`,
      });
    else seen.set(accountKey(id), id);
  }
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
  if (
    feed.updateBalances !== undefined &&
    (KINDS[feed.kind].balances === undefined || routeCellsOf(feed.source.format) === undefined)
  )
    ctx.addIssue({
      code: 'custom',
      path: ['updateBalances'],
      message: `only transactions feeds of bank statement formats (camt, mt940) update balances; a ${feed.kind} feed of ${feed.source.format} files has none to update: remove the key`,
    });
  for (const text of KIND_FEED_KEYS) {
    const { key } = text;
    const owners = RECORD_KINDS.filter((k) => KINDS[k].feedKeys?.includes(key));
    const owned = owners.includes(feed.kind);
    const present = feed[key] !== undefined;
    const replaces = KIND_FEED_KEYS.find((other) => other.insteadOf === key && feed[other.key] !== undefined);
    if (owned && present && text.insteadOf !== undefined && feed[text.insteadOf] !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `give either ${text.insteadOf} or ${key}, not both`,
      });
    if (owned && present && text.perStatement && routeCellsOf(feed.source.format) === undefined)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `a ${feed.source.format} file names no statement account: give ${text.insteadOf ?? 'another key'} instead (${key} is for bank statement formats)`,
      });
    if (owned && !present && text.insteadOf === undefined && replaces === undefined)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `required for kind ${feed.kind}: ${text.required}`,
      });
    if (!owned && present)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `only ${owners.join(', ')} feeds have ${text.what}`,
      });
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
  checkRoutes(feed, ctx);
  return feed;
});
export type Feed = z.output<typeof Feed>;
/** A feed of one kind: its records are RecordOf<K>. */
export type FeedOf<K extends RecordKind> = Feed & { kind: K };
export type FeedInput = z.input<typeof Feed>;
