import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { parseFeed } from '../../../src/config/load-feed.js';
import {
  ACCOUNT,
  bankAccountsOf,
  DEMO_CAMT_IBAN,
  unbalancedDemoCamt,
} from '../../support/statement-feeds.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

const IBAN = DEMO_CAMT_IBAN;

/** An MT940 day statement of one account: opening, one credit, closing, all booked on `yymmdd`. */
const mt940Day = (yymmdd: string, opening: string, credit: string, closing: string) =>
  [
    ':20:STARTUMS',
    `:25:${IBAN}`,
    ':28C:1/1',
    `:60F:C${yymmdd}EUR${opening}`,
    `:61:${yymmdd}${yymmdd.slice(2)}C${credit}NTRFNONREF//B${yymmdd}`,
    `:86:166?00GUTSCHRIFT?20Rechnung ${yymmdd}`,
    `:62F:C${yymmdd}EUR${closing}`,
    '-',
    '',
  ].join('\r\n');

/** A feed folder with `files` (name → content) and the feed's extra YAML lines. */
function feedWith(files: Record<string, string>, format: 'camt' | 'mt940', extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-balances-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const feed = [
    'name: balances',
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: "*.${format === 'camt' ? 'xml' : 'sta'}", format: ${format}}`,
    'bankAccounts: auto',
    ...extra,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return { dir, feed: join(dir, 'feed.yaml') };
}

describe('statement balances keep the bank account’s balanceReference/balanceDate (in-process, sandbox)', () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  const target = () => bankAccountsOf(h).find((b) => b.externalId === `iban-${IBAN}`);

  it('sets the closing booked balance as the next day’s start, warns that the statement does not add up, and a rerun changes nothing', async () => {
    const { feed } = feedWith({ 'day.xml': unbalancedDemoCamt() }, 'camt');
    const first = await h.run(feed);
    expect(first.summary.counts.created).toBe(7);
    expect(target()).toMatchObject({ balanceReference: 2500, balanceDate: '2026-02-05' });
    const [file] = first.summary.files;
    expect(file?.statements).toMatchObject({
      count: 1,
      unbalanced: 1,
      warnings: [
        {
          code: 'STATEMENT_DOES_NOT_ADD_UP',
          line: 16,
          account: IBAN,
          opening: '1520.44',
          entries: 6,
          entriesSum: '813.86',
          closing: '2500.00',
          difference: '165.7',
        },
      ],
      balances: [
        {
          bankAccount: `iban-${IBAN}`,
          balanceDate: '2026-02-05',
          balanceReference: '2500.00',
          outcome: 'updated',
        },
      ],
    });

    const second = await h.run(feed);
    expect(second.summary.files[0]?.statements?.balances).toMatchObject([{ outcome: 'unchanged' }]);
    expect(target()).toMatchObject({ balanceReference: 2500, balanceDate: '2026-02-05' });
  });

  it('only a newer balance moves the account: an older statement imported later leaves it, saying why', async () => {
    const newer = feedWith({ 'a-0305.sta': mt940Day('240305', '100,00', '50,00', '150,00') }, 'mt940');
    await h.run(newer.feed);
    expect(target()).toMatchObject({ balanceReference: 150, balanceDate: '2024-03-06' });

    writeFileSync(join(newer.dir, 'b-0301.sta'), mt940Day('240301', '10,00', '5,00', '15,00'));
    const older = await h.run(newer.feed);
    const balances = older.summary.files.map((f) => f.statements?.balances[0]?.outcome);
    expect(balances).toEqual(['unchanged', 'not-newer']);
    expect(older.summary.files[1]?.statements?.balances[0]?.message).toContain(
      'newer balance (150 at the start of 2024-03-06)',
    );
    expect(target()).toMatchObject({ balanceReference: 150, balanceDate: '2024-03-06' });

    // Of several statements in one file, the newest is applied.
    writeFileSync(
      join(newer.dir, 'c-two-days.sta'),
      mt940Day('240307', '150,00', '1,00', '151,00') + mt940Day('240308', '151,00', '0,01', '151,01'),
    );
    const later = await h.run(newer.feed);
    expect(later.summary.files[2]?.statements).toMatchObject({
      count: 2,
      unbalanced: 0,
      balances: [{ balanceDate: '2024-03-09', balanceReference: '151.01', outcome: 'updated' }],
    });
    expect(target()).toMatchObject({ balanceReference: 151.01, balanceDate: '2024-03-09' });
  });

  it('updateBalances: false leaves the balances alone; a dry run only says what it would set', async () => {
    const optOut = feedWith({ 'd.sta': mt940Day('240305', '100,00', '50,00', '150,00') }, 'mt940', [
      'updateBalances: false',
    ]);
    const dry = await h.run(optOut.feed, true);
    expect(dry.summary.files[0]?.statements?.balances).toEqual([]);
    const run = await h.run(optOut.feed);
    expect(run.summary.counts.created).toBe(1);
    expect(run.summary.files[0]?.statements?.balances).toEqual([]);
    expect(target()).toMatchObject({ balanceReference: null, balanceDate: null });

    const on = feedWith({ 'd.sta': mt940Day('240305', '100,00', '50,00', '150,00') }, 'mt940');
    const dryOn = await h.run(on.feed, true);
    expect(dryOn.summary.files[0]?.statements?.balances).toMatchObject([
      { outcome: 'would-update', balanceDate: '2024-03-06', balanceReference: '150.00' },
    ]);
    expect(target()).toMatchObject({ balanceReference: null, balanceDate: null });
  });
});

describe('updateBalances is a key of bank statement feeds only', () => {
  it('on a CSV feed it is an error naming the key', () => {
    const yaml = [
      'name: csv',
      'accountId: 1',
      'kind: transactions',
      'source: {path: "*.csv", format: csv}',
      'bankAccount: {externalId: a, accountName: A, bankName: B}',
      'mapping: {externalId: id, amount: amount, bookingDate: date, valueDate: date, purpose: text}',
      'updateBalances: false',
    ].join('\n');
    expect(() => parseFeed(yaml, 'feed.yaml')).toThrow(ConfigError);
    expect(() => parseFeed(yaml, 'feed.yaml')).toThrow(
      /updateBalances.*only transactions feeds of bank statement formats/,
    );
  });
});
