import type { TransactionInput, TransactionUpdate } from '../../contract/index.js';
import type { AccountRecord, BankAccountRecord, SandboxState, TransactionRecord } from '../state.js';
import type { Ledger } from './bank-account-rules.js';
import { categoryProblem, type ItemProblem, lowerBound } from './finance-common.js';

/**
 * Building and checking transaction records, shared by single create, bulk create and update.
 */

/**
 * Checks beyond the schema: the category must exist, and a transaction's currency, when given, must be
 * its bank account's currency (a different one is almost always a mapping mistake in the ERP export).
 */
export function transactionProblem(
  account: AccountRecord,
  bank: BankAccountRecord,
  input: Pick<TransactionInput, 'currency' | 'categoryId'>,
): ItemProblem | undefined {
  if (input.currency !== undefined && input.currency !== bank.accountCurrency) {
    return {
      status: 400,
      code: 'INVALID_REQUEST',
      message: `currency ${input.currency} differs from the currency ${bank.accountCurrency} of bank account ${bank.id}; send ${bank.accountCurrency} or omit currency`,
      causes: [
        {
          field: 'currency',
          code: 'invalid_value',
          message: `expected ${bank.accountCurrency} (the account's currency)`,
        },
      ],
    };
  }
  return categoryProblem(account, input.categoryId);
}

/** Creates the record, appends it and indexes it by externalId (server-generated `gen-<id>` when none). */
export function insertTransaction(
  state: SandboxState,
  bank: BankAccountRecord,
  ledger: Ledger,
  input: TransactionInput,
): TransactionRecord {
  const id = state.nextId();
  let externalId = input.externalId ?? `gen-${id}`;
  // A client may have sent a `gen-…` externalId itself; never let a generated one shadow it in the index.
  for (let n = 2; input.externalId === undefined && ledger.byExternalId.has(externalId); n++)
    externalId = `gen-${id}-${n}`;
  const record: TransactionRecord = {
    id,
    bankAccountId: bank.id,
    externalId,
    bookingDate: input.bookingDate,
    valueDate: input.valueDate ?? null,
    amount: input.amount,
    currency: input.currency ?? bank.accountCurrency,
    purpose: input.purpose ?? null,
    counterpartyName: input.counterpartyName ?? null,
    counterpartyIban: input.counterpartyIban ?? null,
    categoryId: input.categoryId ?? null,
  };
  ledger.records.push(record);
  ledger.byExternalId.set(record.externalId, record);
  return record;
}

/** Applies the fields an update carries; `categoryId: null` clears the category. */
export function applyTransactionUpdate(record: TransactionRecord, update: TransactionUpdate): void {
  if (update.bookingDate !== undefined) record.bookingDate = update.bookingDate;
  if (update.valueDate !== undefined) record.valueDate = update.valueDate;
  if (update.amount !== undefined) record.amount = update.amount;
  if (update.currency !== undefined) record.currency = update.currency;
  if (update.purpose !== undefined) record.purpose = update.purpose;
  if (update.counterpartyName !== undefined) record.counterpartyName = update.counterpartyName;
  if (update.counterpartyIban !== undefined) record.counterpartyIban = update.counterpartyIban;
  if (update.categoryId !== undefined) record.categoryId = update.categoryId;
}

/** A transaction of the tenant by id, whatever bank account holds it. */
export function findTransaction(account: AccountRecord, id: number): TransactionRecord | undefined {
  for (const records of account.transactions.values()) {
    const record = records[lowerBound(records, id, (candidate) => candidate.id)];
    if (record?.id === id) return record;
  }
  return undefined;
}
