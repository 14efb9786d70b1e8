import type { DefaultMapping } from './source-format.js';

/**
 * The default mapping of a bank-statement format to transactions: such a format names its entry
 * cells after the transaction fields they fill, so only the cell that carries the bank's own
 * reference (the externalId) differs from format to format.
 */
export function statementTransactions(externalIdCell: string): DefaultMapping {
  return {
    kind: 'transactions',
    mapping: {
      externalId: externalIdCell,
      bookingDate: 'bookingDate',
      valueDate: 'valueDate',
      amount: 'amount',
      currency: 'currency',
      purpose: 'purpose',
      counterpartyName: 'counterpartyName',
      counterpartyIban: 'counterpartyIban',
    },
  };
}
