import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { ACCOUNT, bankAccountsOf } from '../../support/statement-feeds.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

const IBAN = 'CH9300762011623852957';

/**
 * A feed folder of MT940 files (name → text): `bankAccounts: auto`, or one target bank account kept
 * in the currency given. The folder's path comes back to add files between runs.
 */
function feedOf(
  files: Record<string, string>,
  targets: 'auto' | 'EUR' | 'CHF',
): { dir: string; feed: string } {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-mt940-edges-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const feed = [
    'name: mt940-edges',
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    'source: {path: "*.sta", format: mt940}',
    targets === 'auto'
      ? 'bankAccounts: auto'
      : `bankAccount: {externalId: giro-${targets}, accountName: Giro, bankName: Bank, accountCurrency: ${targets}}`,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return { dir, feed: join(dir, 'feed.yaml') };
}

/** A statement's header lines, number `number`. */
const header = (number: string) => [':20:STMT', `:25:${IBAN}`, `:28C:${number}`];
const entry = (day: string, amount: string, reference: string, purpose: string) => [
  `:61:2603${day}03${day}C${amount}NTRFNONREF//${reference}`,
  `:86:166?00GUTSCHRIFT?20SVWZ+${purpose}`,
];

describe('MT940 statements at their edges, end to end (in-process runner, sandbox)', () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  const stored = () =>
    h
      .transactions(ACCOUNT)
      .map((t) => [t.externalId, t.amount, t.currency, t.purpose])
      .sort();

  /** The two halves of statement 7, its second half's currency only in its closing balance. */
  const firstHalf = [
    ...header('7/1'),
    ':60F:C260301CHF100,00',
    ...entry('02', '10,00', 'CH-1', 'Rechnung 1'),
    ':62M:C260302CHF110,00',
    '-',
    '',
  ].join('\r\n');
  const secondHalf = [
    ...header('7/2'),
    ...entry('03', '5,50', 'CH-2', 'Rechnung 2'),
    ':62F:C260303CHF115,50',
    '-',
    '',
  ].join('\r\n');

  it('the second half of a statement split over two files, its currency only in its closing :62F:, goes out in that currency', async () => {
    const { feed } = feedOf({ 'a-first-half.sta': firstHalf, 'b-second-half.sta': secondHalf }, 'CHF');
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 2, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(stored()).toEqual([
      ['CH-1', 10, 'CHF', 'Rechnung 1'],
      ['CH-2', 5.5, 'CHF', 'Rechnung 2'],
    ]);
    expect(exitCodeOfRun(run)).toBe(0);

    // Into an account kept in EUR, its entry is refused by the service, not stored as EUR.
    const eur = await h.run(feedOf({ 'b-second-half.sta': secondHalf.replace(/CH-2/, 'CH-3') }, 'EUR').feed);
    expect(eur.summary.counts).toMatchObject({ created: 0, rejected: 1 });
    expect(eur.outcomes[0]?.message).toContain('currency CHF differs from the currency EUR of bank account');
  });

  it('bankAccounts: auto creates the account of a second half in its closing balance’s currency; the first half, later, joins it', async () => {
    const { dir, feed } = feedOf({ 'b-second-half.sta': secondHalf }, 'auto');
    expect((await h.run(feed)).summary.counts).toMatchObject({ created: 1, rejected: 0, failed: 0 });
    writeFileSync(join(dir, 'a-first-half.sta'), firstHalf);
    expect((await h.run(feed)).summary.counts).toMatchObject({
      created: 1,
      skipped: 1,
      rejected: 0,
      failed: 0,
    });
    expect(stored()).toEqual([
      ['CH-1', 10, 'CHF', 'Rechnung 1'],
      ['CH-2', 5.5, 'CHF', 'Rechnung 2'],
    ]);
    expect(bankAccountsOf(h).filter((b) => b.externalId?.startsWith('iban-'))).toMatchObject([
      { externalId: `iban-${IBAN}`, accountCurrency: 'CHF' },
    ]);
  });

  it('a file cut inside the :86: of its last entry: that entry is rejected at its line, the entries and statements before it sync', async () => {
    const { feed } = feedOf(
      {
        'day.sta': [
          ...header('8/1'),
          ':60F:C260301CHF100,00',
          ...entry('02', '10,00', 'CUT-1', 'Rechnung 1'),
          ':62F:C260302CHF110,00',
          '-',
          ...header('9/1'),
          ':60F:C260302CHF110,00',
          ...entry('03', '20,00', 'CUT-2', 'Rechnung 2'),
          ...entry('04', '30,00', 'CUT-3', 'Rechnung 3 vom 04.03.2026 Kunde'),
        ]
          .join('\r\n')
          .slice(0, -' vom 04.03.2026 Kunde'.length),
      },
      'CHF',
    );
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 2, updated: 0, skipped: 0, rejected: 1, failed: 0 });
    expect(stored()).toEqual([
      ['CUT-1', 10, 'CHF', 'Rechnung 1'],
      ['CUT-2', 20, 'CHF', 'Rechnung 2'],
    ]);
    expect(run.outcomes.filter((o) => o.outcome === 'rejected')).toMatchObject([
      {
        line: 15,
        code: 'UNREADABLE_ROW',
        message: expect.stringContaining(
          'the file ends in the entry of this :61:, before its statement’s closing balance (:62F:) or end (-)',
        ),
      },
    ]);
    expect(exitCodeOfRun(run)).toBe(1);
  });

  it('clean files framed as banks send them (SOH/ETX, a :940: line, BIC / 940 / BIC lines) sync with exit 0', async () => {
    const statement = (number: string, day: string, reference: string) => [
      ...header(number),
      `:60F:C2603${day}CHF100,00`,
      ...entry(day, '1,00', reference, reference),
      `:62F:C2603${day}CHF101,00`,
      '-',
    ];
    const { feed } = feedOf(
      {
        'mbank.sta': `\x01\r\n${statement('1/1', '05', 'SOH-1').join('\r\n')}\x03\r\n`,
        'rabobank.sta': [
          ':940:',
          ...statement('2/1', '06', 'RABO-1').slice(0, -1),
          ':940:',
          ...statement('3/1', '07', 'RABO-2'),
        ].join('\n'),
        'abnamro.sta': ['ABNANL2A', '940', 'ABNANL2A', ...statement('4/1', '08', 'ABN-1'), ''].join('\r\n'),
      },
      'CHF',
    );
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 4, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(stored().map(([externalId]) => externalId)).toEqual(['ABN-1', 'RABO-1', 'RABO-2', 'SOH-1']);
    expect(exitCodeOfRun(run)).toBe(0);
  });
});
