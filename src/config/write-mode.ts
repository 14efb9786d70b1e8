/**
 * How a feed writes records the service may already hold (its `mode`: invoices, bank accounts,
 * users, accounts, categories); every chunk of the feed carries it (src/sync/chunk-settings.ts).
 */
export const WRITE_MODES = ['upsert', 'insert', 'update'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];
