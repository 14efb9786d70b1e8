import type { Logger } from 'pino';
import type { Clock, PartnerClient } from '../client/index.js';
import type { CreateClaims } from './create-claims.js';

/** The part of the client the strategies use: a port, so tests and adapters can supply their own. */
export type SyncClient = Pick<
  PartnerClient,
  | 'checkTransactionsExist'
  | 'createTransactionsBulk'
  | 'lookupInvoicesByExternalIds'
  | 'createInvoicesBulk'
  | 'updateInvoice'
  | 'createPlansBulk'
  | 'listBankAccounts'
  | 'createBankAccount'
  | 'updateBankAccount'
>;

/** What a strategy gets for one chunk: ports only, no I/O of its own. */
export interface ChunkContext {
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  accountId: number;
  signal?: AbortSignal;
  /**
   * Serialises creates of one (account, externalId) across runs and workers (create-claims.ts);
   * absent: no serialisation (tests of one strategy).
   */
  claims?: CreateClaims;
}
