import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../support/run-checks.js';
import { syncHarness } from '../support/sync-harness.js';
import { SHARED_SAMPLES } from './shared-samples.js';

const ACCOUNT = 1001;
const SAMPLES = pathToFileURL(`${SHARED_SAMPLES}/`);

/**
 * What a first sync of one sample gives: records created, pending left out, entries rejected, the
 * created total; the balance the target account is set to (start-of-day date and amount, from the
 * newest statement's closing balance) and the difference of each statement that does not add up.
 */
interface Expected {
  created: number;
  pending: number;
  rejected: number;
  createdAmount: string;
  balance?: [string, string];
  differences: string[];
}

/** Every mt940 sample that `encoding: auto` reads (the code page 852 one is refused: its own tests below). */
const SAMPLE_RESULTS: Record<string, Expected> = {
  'mt940-commerzbank.txt': {
    created: 1,
    pending: 0,
    rejected: 0,
    createdAmount: '-12.35',
    balance: ['2020-06-09', '0.00'],
    differences: ['12.35'],
  },
  'mt940-deutschebank.txt': {
    created: 1,
    pending: 0,
    rejected: 0,
    createdAmount: '-12.35',
    balance: ['2020-06-09', '0.00'],
    differences: ['12.35'],
  },
  'mt940-ing.txt': {
    created: 7,
    pending: 0,
    rejected: 0,
    createdAmount: '-45.59',
    balance: ['2010-07-24', '3.47'],
    differences: ['49.06'],
  },
  'mt940-lbbw.txt': {
    created: 2,
    pending: 0,
    rejected: 0,
    createdAmount: '0',
    balance: ['2021-02-09', '0.00'],
    differences: [],
  },
  'mt940-sparkasse.txt': {
    created: 2,
    pending: 0,
    rejected: 0,
    createdAmount: '-40',
    balance: ['2019-02-20', '154.57'],
    differences: [],
  },
  'mt940-sparkasse2.txt': {
    created: 1,
    pending: 0,
    rejected: 0,
    createdAmount: '1027.25',
    balance: ['2020-02-20', '931304.50'],
    differences: ['-775.04'],
  },
  'mt940-sparkasse_interim_balance.txt': {
    created: 2,
    pending: 0,
    rejected: 0,
    createdAmount: '-40',
    balance: ['2021-11-03', '0'],
    differences: [],
  },
  'mt940-volksbankenraiffeisenbanken.txt': {
    created: 12,
    pending: 0,
    rejected: 0,
    createdAmount: '745',
    balance: ['2020-03-11', '3830.00'],
    differences: [],
  },
  'mt940-wolph-february_30.sta': {
    created: 0,
    pending: 0,
    rejected: 1,
    createdAmount: '0',
    balance: ['2016-03-02', '1194.00'],
    differences: [],
  },
  'mt940-wolph-mt942.sta': { created: 0, pending: 1, rejected: 0, createdAmount: '0', differences: [] },
  // A fragment that ends in its entry (no closing balance, no end): the entry may be cut short, refused.
  'mt940-wolph-sparkassen.sta': { created: 0, pending: 0, rejected: 1, createdAmount: '0', differences: [] },
  'mt940-wolph-whitespace.sta': {
    created: 1,
    pending: 0,
    rejected: 0,
    createdAmount: '-233.15',
    balance: ['2017-09-15', '12345.98'],
    differences: ['234.01'],
  },
};

/** A feed of one sample, with no mapping section, writing to a bank account of its own (auto, EUR by default). */
function feedOf(
  sample: string,
  { encoding, currency }: { encoding?: string; currency?: string } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-mt940-'));
  copyFileSync(new URL(sample, SAMPLES), join(dir, sample));
  const name = sample.replace(/[^A-Za-z0-9]+/g, '-');
  const feed = [
    `name: ${name}`,
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(sample)}, format: mt940${encoding ? `, encoding: ${encoding}` : ''}}`,
    `bankAccount: {externalId: ${name}, accountName: ${name}, bankName: Bank${currency ? `, accountCurrency: ${currency}` : ''}}`,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

describe('the real MT940/MT942 samples, end to end (in-process runner, sandbox)', () => {
  // A sandbox per sample: each feed creates its own bank account, and a customer account holds
  // five visible ones at most.
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  it.each(Object.entries(SAMPLE_RESULTS))(
    '%s: booked entries created once, pending left out and counted, a rerun creates nothing',
    async (sample, expected) => {
      const feed = feedOf(sample);
      const first = await h.run(feed);
      expect(first.summary.counts).toEqual({
        created: expected.created,
        updated: 0,
        skipped: expected.pending,
        rejected: expected.rejected,
        failed: 0,
      });
      expect(first.summary.controlTotals.created.amount).toBe(expected.createdAmount);
      expect(h.transactions(ACCOUNT)).toHaveLength(expected.created);
      const statements = first.summary.files[0]?.statements;
      expect(statements?.warnings.map((w) => w.difference) ?? []).toEqual(expected.differences);
      const target = [...(h.sandbox.runtime.state.accounts.get(ACCOUNT)?.bankAccounts.values() ?? [])].find(
        (b) => b.externalId === sample.replace(/[^A-Za-z0-9]+/g, '-'),
      );
      if (expected.balance) {
        const [date, amount] = expected.balance;
        expect(statements?.balances).toMatchObject([
          { outcome: 'updated', balanceDate: date, balanceReference: amount },
        ]);
        expect(target).toMatchObject({ balanceDate: date, balanceReference: Number(amount) });
      } else expect(statements?.balances ?? []).toEqual([]);
      for (const pending of first.outcomes.filter((o) => o.outcome === 'skipped'))
        expect(pending).toMatchObject({ code: 'EXCLUDED', message: expect.stringMatching(/^pending: /) });
      for (const rejected of first.outcomes.filter((o) => o.outcome === 'rejected'))
        expect(rejected).toMatchObject({ code: 'UNREADABLE_ROW', message: expect.stringContaining(':61:') });

      const second = await h.run(feed);
      expect(second.summary.counts).toEqual({
        created: 0,
        updated: 0,
        skipped: expected.created + expected.pending,
        rejected: expected.rejected,
        failed: 0,
      });
      expect(h.transactions(ACCOUNT)).toHaveLength(expected.created);
    },
  );

  it('mt940-wolph-raiffeisen-cmi.sta (code page 852): encoding auto refuses it, the run stops naming the file, nothing is created', async () => {
    const run = await h.run(feedOf('mt940-wolph-raiffeisen-cmi.sta'));
    expect(run.summary.state).toBe('stopped');
    expect(run.summary.stopReason?.code).toBe('ENCODING_INVALID');
    expect(run.summary.stopReason?.message).toMatch(
      /mt940-wolph-raiffeisen-cmi\.sta: neither UTF-8 \(byte 0xA0 at byte offset 127\) nor Windows-1252/,
    );
    expect(exitCodeOfRun(run)).toBe(2);
    expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(h.transactions(ACCOUNT)).toHaveLength(0);
  });

  it('mt940-wolph-raiffeisen-cmi.sta read as iso-8859-1 (a feed that accepts wrong letters): its seven HUF entries, once', async () => {
    const feed = feedOf('mt940-wolph-raiffeisen-cmi.sta', { encoding: 'iso-8859-1', currency: 'HUF' });
    const first = await h.run(feed);
    expect(first.summary.counts).toEqual({ created: 7, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    // 2066637.00 - 14790.00 - 3051800.00 - 3892.77 - 789.24 - 1578.49 - 6000.00
    expect(first.summary.controlTotals.created).toEqual({ records: 7, amount: '-1012213.5' });
    expect(h.transactions(ACCOUNT).every((t) => t.currency === 'HUF')).toBe(true);
    // 25170637.10 - 1012213.50 = 24158423.60, not the closing 25281687.60.
    expect(first.summary.files[0]?.statements).toMatchObject({
      unbalanced: 1,
      warnings: [{ difference: '1123264' }],
      balances: [{ outcome: 'updated', balanceDate: '2018-04-18', balanceReference: '25281687.60' }],
    });
    expect((await h.run(feed)).summary.counts).toMatchObject({ created: 0, skipped: 7 });
    expect(h.transactions(ACCOUNT)).toHaveLength(7);
  });
});
