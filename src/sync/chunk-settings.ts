import type { BankAccountRoutes } from '../kinds/transactions/bank-account-target.js';

/** How a feed writes records the service may already hold (invoices, bank accounts). */
export const WRITE_MODES = ['upsert', 'insert', 'update'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

/** What a chunk carries besides its records: the resolved target and the feed's write options. */
export interface ChunkSettings {
  bankAccountId?: number;
  /** Bank statements: the targets per statement account, found or created by the chunk that needs one. */
  bankAccounts?: BankAccountRoutes;
  mode: WriteMode;
  emptyCellClears: boolean;
  /** Service fields the feed maps (an empty cell may clear only a mapped field). */
  mappedFields: string[];
}
