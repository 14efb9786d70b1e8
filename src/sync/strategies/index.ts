import type { RecordKind } from '../../config/kinds.js';
import type { MappedRecord } from '../../sources/record.js';
import type { RecordOutcome } from '../outcome.js';
import type { ChunkContext } from '../ports.js';
import { syncBankAccountsChunk } from './bank-accounts.js';
import { syncInvoicesChunk } from './invoices.js';
import { syncPlansChunk } from './plans.js';
import { syncTransactionsChunk } from './transactions.js';

/** What a chunk carries besides its records: the resolved target and the feed's write options. */
export interface ChunkSettings {
  bankAccountId?: number;
  mode: 'upsert' | 'insert' | 'update';
  emptyCellClears: boolean;
  /** Service fields the feed maps (an empty cell may clear only a mapped field). */
  mappedFields: string[];
}

export type ChunkStrategy = (
  records: readonly MappedRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
) => Promise<RecordOutcome[]>;

/** One strategy per record kind, in a typed map (no dynamic lookup by string path). */
export const STRATEGIES: Record<RecordKind, ChunkStrategy | undefined> = {
  transactions: (records, settings, ctx) => {
    if (settings.bankAccountId === undefined)
      throw new Error('transactions chunk without a target bank account');
    return syncTransactionsChunk(
      records as readonly MappedRecord<'transactions'>[],
      settings.bankAccountId,
      ctx,
    );
  },
  invoices: (records, settings, ctx) =>
    syncInvoicesChunk(records as readonly MappedRecord<'invoices'>[], settings, ctx),
  plans: (records, _settings, ctx) => syncPlansChunk(records as readonly MappedRecord<'plans'>[], ctx),
  'bank-accounts': (records, settings, ctx) =>
    syncBankAccountsChunk(records as readonly MappedRecord<'bank-accounts'>[], settings, ctx),
};
