import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT, bankAccountsOf } from '../support/statement-feeds.js';
import { type SyncHarness, syncHarness } from '../support/sync-harness.js';
import { sharedSample as camtSample } from './shared-samples.js';

/**
 * Where a sample's statements go: `auto` for an IBAN (`Acct/Id/IBAN`), which creates `iban-<IBAN>`;
 * an account given by `Othr/Id` is no IBAN, so `auto` would reject it: one bankAccount naming it
 * as its accountNumber takes it; a statement naming no account at all goes to a bankAccount naming none.
 */
type Routing =
  | { auto: string; currency: string }
  | { accountNumber: string; currency: string }
  | { unnamed: true };

/**
 * What a first sync of one sample gives, read off the XML (and, where genkgo's .json exists,
 * the same as its entries' amounts, indicators and statuses): booked entries created, pending left
 * out, the signed sum of the created entries, and their externalIds (the bank's reference where
 * the file has one; `derived` for the derived identity).
 */
interface Expected {
  routing: Routing;
  created: number;
  pending: number;
  createdAmount: string;
  externalIds: string[];
  /** The balance the target is set to (start-of-day date and amount), and each statement's difference that does not add up. */
  balance?: [string, string];
  differences: string[];
}

const derived = expect.stringMatching(/^erpb2-/);

const SAMPLE_RESULTS: Record<string, Expected> = {
  // One SEK debit of 200000 (a batch of 20 with one TxDtls and no amount of its own: one record).
  'camt-camt052.v2.xml': {
    routing: { accountNumber: 'CH2801234000123456789', currency: 'SEK' },
    created: 1,
    pending: 0,
    createdAmount: '-200000',
    externalIds: ['AAAASESS-FP-ACCR-01'],
    differences: [],
  },
  // Ten balances, one credit written `8.850`; the only reference is the EndToEndId.
  'camt-camt053.v2.all-balance-types.xml': {
    routing: { accountNumber: 'CH2801234000123456789', currency: 'EUR' },
    created: 1,
    pending: 0,
    createdAmount: '8.85',
    externalIds: ['000000001'],
    balance: ['2015-01-23', '4.04'],
    differences: ['-5.82'],
  },
  'camt-camt053.v2.five.decimals.xml': {
    routing: { auto: 'NL26VAYB8060476890', currency: 'EUR' },
    created: 1,
    pending: 0,
    createdAmount: '8.85',
    externalIds: ['000000001'],
    balance: ['2015-01-01', '27.050'],
    differences: ['0.05'],
  },
  // Two statements of one account: +8.85 and -7.00.
  'camt-camt053.v2.multi.statement.xml': {
    routing: { auto: 'NL26VAYB8060476890', currency: 'EUR' },
    created: 2,
    pending: 0,
    createdAmount: '1.85',
    externalIds: ['000000001', '000000002'],
    balance: ['2015-01-01', '20.00'],
    differences: [],
  },
  // One TxDtls whose own amount is 0 SEK: not a batch of amounts, the entry's 8.85 EUR is the record.
  'camt-camt053.v4.xml': {
    routing: { accountNumber: 'NL26VAYB8060476890', currency: 'EUR' },
    created: 1,
    pending: 0,
    createdAmount: '8.85',
    externalIds: ['AAAASESS-FP-CN_98765/01'],
    balance: ['2014-12-31', '-27.00'],
    differences: ['-54'],
  },
  // No AcctSvcrRef, NtryRef or EndToEndId (only a proprietary reference): the derived identity.
  'camt053-v2-minimal.xml': {
    routing: { auto: 'NL26VAYB8060476890', currency: 'EUR' },
    created: 1,
    pending: 0,
    createdAmount: '8.85',
    externalIds: [derived],
    balance: ['2015-01-01', '-27.00'],
    differences: ['-54'],
  },
  'camt053-v8.xml': {
    routing: { accountNumber: 'NL26VAYB8060476890', currency: 'EUR' },
    created: 1,
    pending: 0,
    createdAmount: '8.85',
    externalIds: ['AAAASESS-FP-CN_98765/01'],
    balance: ['2014-12-31', '-27.00'],
    differences: ['-54'],
  },
  // Six entries, the batch of 2.25 + 1.20 as two: 0.60 + 0.50 - 89.85 + 1.20 - 80 + 2.25 + 1.20.
  'camt053-vr-bank.xml': {
    routing: { auto: 'DE14740618130000033626', currency: 'EUR' },
    created: 7,
    pending: 0,
    createdAmount: '-164.1',
    externalIds: [
      '2013123001153870000',
      '2013123001153870001',
      '2014010303263400000/#1',
      '2014010303263400000/#2',
      '2014010509572410000',
      '367406715024072/1',
      '640387810124072/2',
    ],
    balance: ['2014-01-04', '27.61'],
    differences: ['167.55'],
  },
  // Four debits of 10, 20, 30 and 40.
  'actual-camt.053.payee-memo.xml': {
    routing: { auto: 'DE14740618130000033626', currency: 'EUR' },
    created: 4,
    pending: 0,
    createdAmount: '-100',
    externalIds: ['test-neither', 'test-notes-only', 'test-payee-and-notes', 'test-payee-only'],
    differences: [],
  },
  // No Acct, no Sts (a statement's entry without status is booked): debits of 10 and 20.
  'actual-camt.053.tracking-number.xml': {
    routing: { unnamed: true },
    created: 2,
    pending: 0,
    createdAmount: '-30',
    externalIds: ['test-cheque', 'test-no-cheque'],
    differences: [],
  },
};

function targetsOf(routing: Routing, name: string): string {
  if ('auto' in routing) return 'bankAccounts: auto';
  const base = `externalId: ${name}, accountName: ${name}, bankName: Bank`;
  if ('accountNumber' in routing)
    return `bankAccount: {${base}, accountCurrency: ${routing.currency}, accountNumber: "${routing.accountNumber}"}`;
  return `bankAccount: {${base}}`;
}

/** A feed of one sample with no mapping section. */
function feedOf(sample: string, routing: Routing): { feed: string; name: string } {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-camt-samples-'));
  copyFileSync(camtSample(sample), join(dir, sample));
  const name = sample.replace(/[^A-Za-z0-9]+/g, '-');
  const feed = [
    `name: ${name}`,
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(sample)}, format: camt}`,
    targetsOf(routing, name),
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return { feed: join(dir, 'feed.yaml'), name };
}

describe('every camt sample, end to end with no mapping section (in-process runner, sandbox)', () => {
  // A sandbox per sample: a customer account holds five visible bank accounts at most.
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  const bankAccounts = () => bankAccountsOf(h);

  it.each(Object.entries(SAMPLE_RESULTS))(
    '%s: booked entries created once, pending left out, control totals, a rerun creates nothing',
    async (sample, expected) => {
      const { feed, name } = feedOf(sample, expected.routing);
      const first = await h.run(feed);
      expect(first.summary.stopReason).toBeUndefined();
      expect(first.summary.counts).toEqual({
        created: expected.created,
        updated: 0,
        skipped: expected.pending,
        rejected: 0,
        failed: 0,
      });
      expect(first.summary.controlTotals.created).toEqual({
        records: expected.created,
        amount: expected.createdAmount,
      });
      const stored = h.transactions(ACCOUNT);
      expect(stored.map((t) => t.externalId).sort()).toEqual(expected.externalIds);

      const { routing } = expected;
      const targetId = 'auto' in routing ? `iban-${routing.auto}` : name;
      const targets = bankAccounts().filter((b) => b.externalId === targetId);
      expect(targets).toHaveLength(1);
      if ('auto' in routing)
        expect(targets[0]).toMatchObject({
          provider: 'PARTNER',
          iban: routing.auto,
          accountCurrency: routing.currency,
        });

      const statements = first.summary.files[0]?.statements;
      expect(statements?.warnings.map((w) => w.difference) ?? []).toEqual(expected.differences);
      if (expected.balance) {
        const [date, amount] = expected.balance;
        expect(statements?.balances).toMatchObject([
          { outcome: 'updated', balanceDate: date, balanceReference: amount },
        ]);
        expect(targets[0]).toMatchObject({ balanceDate: date, balanceReference: Number(amount) });
      } else expect(statements?.balances ?? []).toEqual([]);

      const second = await h.run(feed);
      expect(second.summary.counts).toEqual({
        created: 0,
        updated: 0,
        skipped: expected.created + expected.pending,
        rejected: 0,
        failed: 0,
      });
      expect(h.transactions(ACCOUNT)).toHaveLength(expected.created);
      expect(bankAccounts().filter((b) => b.externalId === targetId)).toHaveLength(1);
    },
  );
});
