import { describe, expect, it } from 'vitest';
import type { BankAccountTarget } from '../../../src/kinds/bank-accounts/bank-account-target.js';
import type { KindFeedOptions } from '../../../src/kinds/definition.js';
import { autoTarget, groupByTarget, routeTransaction } from '../../../src/kinds/transactions/routing.js';
import type { MappedRecord } from '../../../src/sources/record.js';

const base: KindFeedOptions = {
  accountId: 1001,
  mode: 'upsert',
  emptyCellClears: false,
  replaceCurrentValuesForThePeriod: true,
};
const target = (externalId: string, ids: Partial<BankAccountTarget> = {}): BankAccountTarget => ({
  externalId,
  accountName: externalId,
  bankName: 'Bank',
  accountCurrency: 'EUR',
  accountType: 'CHECKING',
  ...ids,
});
const IBAN = 'DE89370400440532013000';

describe('routeTransaction: where a statement entry goes', () => {
  it('one bankAccount without iban or accountNumber takes every statement, named or not', () => {
    const feed = { ...base, bankAccount: target('all') };
    expect(routeTransaction(feed, { account: IBAN })).toEqual({});
    expect(routeTransaction(feed, undefined)).toEqual({});
  });

  it('one bankAccount with an iban or account number takes its own statements only (MT940 BLZ/number too)', () => {
    const byIban = { ...base, bankAccount: target('a', { iban: 'DE89 3704 0044 0532 0130 00' }) };
    expect(routeTransaction(byIban, { account: IBAN })).toEqual({});
    expect(routeTransaction(byIban, { account: 'DE02120300000000202051' })).toMatchObject({
      rejected: expect.stringContaining('is not the feed\'s bankAccount "a"'),
    });
    const byNumber = { ...base, bankAccount: target('n', { accountNumber: '123456789' }) };
    expect(routeTransaction(byNumber, { account: '87052000/123456789' })).toEqual({});
    expect(routeTransaction(byNumber, { account: '123456789' })).toEqual({});
    expect(routeTransaction(byNumber, { account: '87052000/999' })).toHaveProperty('rejected');
  });

  it('a map routes its accounts and rejects the others with the key to add; auto takes IBANs only', () => {
    const map = { ...base, bankAccounts: { [IBAN]: target('a') } };
    expect(routeTransaction(map, { account: IBAN, currency: 'EUR' })).toEqual({
      route: { account: IBAN, currency: 'EUR' },
    });
    expect(routeTransaction(map, { account: 'ACC-7' })).toEqual({
      rejected: expect.stringContaining('add "ACC-7": { externalId, accountName, bankName } to bankAccounts'),
    });
    expect(routeTransaction(map, undefined)).toHaveProperty('rejected');
    const auto = { ...base, bankAccounts: 'auto' as const };
    expect(routeTransaction(auto, { account: IBAN })).toEqual({ route: { account: IBAN } });
    expect(routeTransaction(auto, { account: 'ACC-7' })).toMatchObject({
      rejected: expect.stringContaining('is not an IBAN'),
    });
    expect(routeTransaction(auto, { account: IBAN, currency: 'ZZZ' })).toHaveProperty('rejected');
  });

  it('auto ensures iban-<IBAN> in the statement currency; a chunk is grouped per target', () => {
    expect(autoTarget({ account: IBAN, currency: 'USD' })).toEqual({
      externalId: `iban-${IBAN}`,
      accountName: IBAN,
      bankName: 'bank statement import',
      accountCurrency: 'USD',
      accountType: 'CHECKING',
      iban: IBAN,
    });
    const record = (externalId: string, account?: string): MappedRecord => ({
      file: 'f',
      line: 1,
      externalId,
      derivedId: false,
      payload: {},
      ...(account ? { route: { account } } : {}),
    });
    const groups = groupByTarget([record('1', IBAN), record('2'), record('3', IBAN)], 'auto');
    expect(groups.map((g) => [g.target?.externalId, g.records.map((r) => r.externalId)])).toEqual([
      [`iban-${IBAN}`, ['1', '3']],
      [undefined, ['2']],
    ]);
  });
});
