import { z } from 'zod';
import type { KindFeedKey } from '../kinds/definition.js';
import { KINDS, RECORD_KINDS, type RecordKind } from '../kinds/registry.js';
import { BankAccountTarget } from '../kinds/transactions/bank-account-target.js';
import { Source } from '../sources/formats/registry.js';
import { WRITE_MODES } from '../sync/chunk-settings.js';

const columnRef = z.union([z.string().min(1), z.int().positive()], {
  message: 'expected a column name, or a 1-based column position for duplicated names',
});

/** Translates source values (after trimming) to service values, e.g. {"bezahlt": "PAID"}. */
const valueMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/**
 * How one service field is filled. A bare string names a column; objects give the other forms:
 * a column by name or position (with an optional value map and default for empty cells), a
 * constant, several columns joined, debit/credit columns, or an amount with a sign column.
 */
export const FieldMapping = z.union(
  [
    z.string().min(1),
    z.strictObject({
      column: columnRef,
      map: valueMap.optional(),
      default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    }),
    z.strictObject({ const: z.union([z.string(), z.number(), z.boolean(), z.null()]) }),
    z.strictObject({ columns: z.array(columnRef).min(1), separator: z.string().default(' ') }),
    z.strictObject({ debit: columnRef, credit: columnRef }),
    z.strictObject({
      column: columnRef,
      sign: z.strictObject({
        column: columnRef,
        negative: z.array(z.string()).min(1).default(['S', 'D', '-']),
        positive: z.array(z.string()).min(1).default(['H', 'C', '+']),
      }),
    }),
  ],
  {
    message:
      'expected a column name, or one of {column[, map, default]}, {const}, {columns[, separator]}, {debit, credit}, {column, sign}',
  },
);
export type FieldMapping = z.output<typeof FieldMapping>;

const RowFilter = z.strictObject({
  column: columnRef,
  equals: z.string().optional(),
  matches: z.string().optional(),
});

/** The feed's `source`: its keys depend on `source.format` (src/sources/formats/registry.ts). */
export { Source };

/** Feed keys that belong to kinds (KindDefinition.feedKeys): what they are, for the messages. */
const KIND_FEED_KEYS: readonly { key: KindFeedKey; required: string; what: string }[] = [
  {
    key: 'bankAccount',
    required: 'the target bank account (externalId, accountName, bankName, ...)',
    what: 'a target bank account',
  },
];

export const Feed = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected letters, digits, ".", "_" or "-"'),
    accountId: z.int().positive(),
    kind: z.enum(RECORD_KINDS),
    source: Source,
    mapping: z.record(z.string(), FieldMapping),
    bankAccount: BankAccountTarget.optional(),
    /** invoices and bank-accounts: upsert (default), insert (create only) or update (update only). */
    mode: z.enum(WRITE_MODES).default('upsert'),
    /** invoices/bank-accounts updates: whether an empty source cell clears the service's value. */
    emptyCellClears: z.boolean().default(false),
    /** plans: replace the period's value (idempotent reruns) rather than add to it. */
    replaceCurrentValuesForThePeriod: z.boolean().default(true),
    /** Rows to leave out on purpose (e.g. pending bookings); reported as skipped with the reason. */
    exclude: z.array(RowFilter).default([]),
    schedule: z.string().optional(),
    timezone: z.string().default('UTC'),
    concurrency: z.int().min(1).max(64).default(2),
    /** How IDs are derived for records without a source ID (docs/identity.md); 1 keeps pre-2026-11 IDs. */
    identityScheme: z.literal([1, 2]).default(2),
  })
  .superRefine((feed, ctx) => {
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
    for (const text of KIND_FEED_KEYS) {
      const { key } = text;
      const owners = RECORD_KINDS.filter((k) => KINDS[k].feedKeys?.includes(key));
      const owned = owners.includes(feed.kind);
      const present = feed[key] !== undefined;
      if (owned && !present)
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
  });
export type Feed = z.output<typeof Feed>;
/** A feed of one kind: its records are RecordOf<K>. */
export type FeedOf<K extends RecordKind> = Feed & { kind: K };
export type FeedInput = z.input<typeof Feed>;
