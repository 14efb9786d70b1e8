import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { OPERATIONS } from '../../../src/contract/index.js';
import { isWriteHelper } from '../../../src/sync/writes/before-writes.js';

/**
 * The identity settings are stored before a run's first write (issue 26 point 5) by wrapping the
 * client's write helpers, found by their operation's name and scope. A helper named otherwise
 * would write unseen: each must be listed here as a read.
 */
const READS_NAMED_OTHERWISE = ['invoicePages', 'lookupInvoicesByExternalIds', 'transactionPages'];

describe('the client helpers that write', () => {
  const helpers = Object.getOwnPropertyNames(PartnerClient.prototype).filter((n) => n !== 'constructor');

  it('are the creates and updates, not the reads (an existence check is a POST that reads)', () => {
    expect(helpers.filter(isWriteHelper).sort()).toEqual([
      'createAccount',
      'createBankAccount',
      'createCategory',
      'createInvoicesBulk',
      'createPlansBulk',
      'createTransactionsBulk',
      'createUser',
      'updateAccount',
      'updateBankAccount',
      'updateCategory',
      'updateInvoice',
      'updateUser',
    ]);
  });

  it('every helper not named after an operation is a known read', () => {
    expect(helpers.filter((n) => !(n in OPERATIONS)).sort()).toEqual(READS_NAMED_OTHERWISE);
  });
});
