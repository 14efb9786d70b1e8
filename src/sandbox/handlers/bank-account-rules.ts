import { conflict, notFound, SandboxFault } from '../fault.js';
import type { AccountRecord, BankAccountRecord, TransactionRecord } from '../state.js';

/**
 * The bank-account rules that several handler groups share: lookup (404), the partner surface's
 * write rule (409), the subscription's bank-account limit (400) and the per-account transaction ledger.
 */

export function bankAccountOr404(account: AccountRecord, id: number): BankAccountRecord {
  const bank = account.bankAccounts.get(id);
  if (!bank) {
    throw notFound(
      'BANK_ACCOUNT_NOT_FOUND',
      `Bank account ${id} does not exist in account ${account.id}; list /bank-accounts for valid ids`,
    );
  }
  return bank;
}

/** Spec: the partner interface may modify, delete or write transactions to PARTNER accounts only. */
export function requirePartnerManaged(bank: BankAccountRecord, action: string): void {
  if (bank.provider !== 'PARTNER') {
    throw conflict(
      'BANK_ACCOUNT_NOT_MODIFIABLE',
      `Bank account ${bank.id} is managed by provider ${bank.provider}; the partner interface may ${action} ` +
        'only accounts of provider PARTNER',
    );
  }
}

/** Accounts of provider API and PARTNER count towards the limit, disabled (visible false) ones do not. */
export function countsTowardsLimit(bank: Pick<BankAccountRecord, 'provider' | 'visible'>): boolean {
  return bank.visible && (bank.provider === 'API' || bank.provider === 'PARTNER');
}

/**
 * 400 MAX_BANK_ACCOUNTS_REACHED when one more counting account would exceed
 * maxAllowedBankAccounts + bankAccountAddons. A missing maximum means "no limit".
 */
export function assertRoomForOneMore(account: AccountRecord, what: string): void {
  const { maxAllowedBankAccounts, bankAccountAddons } = account.subscriptionInformation;
  if (maxAllowedBankAccounts === undefined) return;
  const allowed = maxAllowedBankAccounts + (bankAccountAddons ?? 0);
  let counted = 0;
  for (const bank of account.bankAccounts.values()) if (countsTowardsLimit(bank)) counted++;
  if (counted >= allowed) {
    throw new SandboxFault(
      400,
      'MAX_BANK_ACCOUNTS_REACHED',
      `Cannot ${what}: account ${account.id} already has ${counted} of ${allowed} bank accounts its ` +
        'subscription allows (visible accounts of provider API and PARTNER count); hide (visible false) ' +
        'or delete one first, or create this one with visible false',
    );
  }
}

export interface Ledger {
  /** In id order, append only (see AccountRecord.transactions). */
  records: TransactionRecord[];
  byExternalId: Map<string, TransactionRecord>;
}

/** The transactions of one bank account and their index, created on first use (accounts created after the seed). */
export function ledgerOf(account: AccountRecord, bankAccountId: number): Ledger {
  let records = account.transactions.get(bankAccountId);
  if (!records) {
    records = [];
    account.transactions.set(bankAccountId, records);
  }
  let byExternalId = account.transactionsByExternalId.get(bankAccountId);
  if (!byExternalId) {
    byExternalId = new Map();
    account.transactionsByExternalId.set(bankAccountId, byExternalId);
  }
  return { records, byExternalId };
}
