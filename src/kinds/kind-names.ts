/**
 * Every record kind a feed can carry, in registry order; the name is the feed's `kind`. A leaf of
 * its own so that a command's options can list the kinds without loading them (start-up time:
 * `erp-bridge --help` loads no kind); registry.ts holds exactly one definition per name.
 */
export const RECORD_KINDS = [
  'transactions',
  'invoices',
  'plans',
  'bank-accounts',
  'users',
  'accounts',
  'categories',
] as const;

export type RecordKind = (typeof RECORD_KINDS)[number];
