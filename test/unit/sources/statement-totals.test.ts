import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openText } from '../../../src/sources/decode.js';
import { Mt940Source } from '../../../src/sources/formats/mt940-source.js';
import { readSource } from '../../../src/sources/formats/registry.js';
import { balanceCandidates, statementWarnings } from '../../../src/sources/formats/statement-report.js';
import {
  nextDay,
  StatementTally,
  type StatementTotals,
  startOfDayBalance,
  statementDifference,
} from '../../../src/sources/formats/statement-totals.js';
import { INTERIM_REPORT } from '../../support/mt940-items.js';

/** The demo's MT940 file: five one-day statements of one account (written for the demo). */
const DEMO_MT940 = 'config/feeds/demo/exports/mt940/mt940-volksbank-2026-02.txt';

async function mt940Statements(text: NodeJS.ReadableStream): Promise<readonly StatementTotals[]> {
  const reading = readSource('mt940', Mt940Source.parse({ format: 'mt940', path: 'x' }), 'x.sta', text);
  for await (const _ of reading.batches);
  return reading.statements?.() ?? [];
}
const textStatements = (lines: string[]) => mt940Statements(Readable.from([lines.join('\r\n')]));

function tally(opening: string | undefined, entries: string[], closing: string | undefined): StatementTotals {
  const t = new StatementTally(1);
  if (opening !== undefined) t.balance('opening', { amount: opening, date: '2024-03-01' });
  for (const amount of entries) t.entry(amount);
  if (closing !== undefined) t.balance('closing', { amount: closing, date: '2024-03-01' });
  return t.figures;
}

describe('a statement’s arithmetic (opening + booked entries = closing), exact', () => {
  it('adds up to the cent with amounts a binary float gets wrong', () => {
    expect(statementDifference(tally('0.1', ['0.2'], '0.3'))).toBeUndefined();
    expect(
      statementDifference(tally('1000000000000.01', ['-0.01', '0.10'], '1000000000000.1')),
    ).toBeUndefined();
  });

  it('gives the exact difference closing − (opening + entries) when it does not', () => {
    expect(statementDifference(tally('24.16', ['-164.10'], '27.61'))).toBe('167.55');
    expect(statementDifference(tally('18.150', ['8.85'], '27.050'))).toBe('0.05');
    expect(statementDifference(tally('18.15', ['8.85'], '-27.00'))).toBe('-54');
  });

  it('checks nothing without both balances, or with an entry it could not read', () => {
    expect(statementDifference(tally(undefined, ['1'], '2'))).toBeUndefined();
    expect(statementDifference(tally('1', ['1'], undefined))).toBeUndefined();
    const t = new StatementTally(1);
    t.balance('opening', { amount: '1', date: '2024-03-01' });
    t.unreadableEntry();
    t.balance('closing', { amount: '5', date: '2024-03-01' });
    expect(statementDifference(t.figures)).toBeUndefined();
  });
});

describe('the start-of-day balance a statement proves (the service keeps balanceReference on balanceDate)', () => {
  it('a closing booked balance is the start of the next day, across month, year and leap day', () => {
    expect(startOfDayBalance(tally('1', [], '2.50'))).toEqual({ amount: '2.50', date: '2024-03-02' });
    expect(nextDay('2016-02-28')).toBe('2016-02-29');
    expect(nextDay('2015-02-28')).toBe('2015-03-01');
    expect(nextDay('2014-12-31')).toBe('2015-01-01');
  });

  it('without a closing balance, an opening booked balance is its own day; a previous close the next', () => {
    expect(startOfDayBalance(tally('7', ['1'], undefined))).toEqual({ amount: '7', date: '2024-03-01' });
    const t = new StatementTally(1);
    t.balance('opening', { amount: '24.16', date: '2014-01-02' }, true);
    expect(startOfDayBalance(t.figures)).toEqual({ amount: '24.16', date: '2014-01-03' });
    expect(startOfDayBalance(tally(undefined, ['1'], undefined))).toBeUndefined();
  });

  it('per statement account, the newest balance of a file wins (the later statement on the same day)', async () => {
    const statements = await mt940Statements(openText(DEMO_MT940, 'auto').text);
    expect(statements).toHaveLength(5);
    expect(balanceCandidates(statements)).toEqual([
      {
        account: '74069911/4417650',
        currency: 'EUR',
        balance: { amount: '4281.60', date: '2026-02-19' },
        statementLine: 64,
      },
    ]);
  });
});

describe('MT940 statements as the reader gives them', () => {
  it('reads :60F:/:62F: and :60M:/:62M:, signed, with the :61: entries between them', async () => {
    const statements = await textStatements([
      ':20:STARTUMSE',
      ':25:64459990/0004417082',
      ':28C:00012/001',
      ':60F:C190215EUR194,57',
      ':61:1902180218DR20,00NMSCNONREF',
      ':86:106?00KARTENZAHLUNG?20BAECKEREI',
      ':62M:C190218EUR174,57',
      '-',
      ':20:STARTUMSE',
      ':25:64459990/0004417082',
      ':28C:00012/002',
      ':60M:C190218EUR174,57',
      ':61:1902190219DR20,00NMSCNONREF',
      ':86:106?00KARTENZAHLUNG?20DROGERIE',
      ':62F:C190219EUR154,57',
      '-',
    ]);
    expect(statements.map((s) => [s.line, s.opening, s.closing, s.entries, s.sum])).toEqual([
      [1, { amount: '194.57', date: '2019-02-15' }, { amount: '174.57', date: '2019-02-18' }, 1, '-20'],
      [9, { amount: '174.57', date: '2019-02-18' }, { amount: '154.57', date: '2019-02-19' }, 1, '-20'],
    ]);
    expect(statementWarnings(statements)).toEqual({ unbalanced: 0, warnings: [] });
  });

  it('a debit balance is negative; a statement that does not add up is a warning with the difference', async () => {
    const text = [
      ':20:STARTUMS',
      ':25:10020030/1234567',
      ':28C:7/1',
      ':60F:D240301EUR100,00',
      ':61:2403010301C50,00NTRFNONREF',
      ':86:166?00GUTSCHRIFT?20Rechnung 1',
      ':61:2403010301D20,50NTRFNONREF',
      ':86:105?00LASTSCHRIFT?20Strom',
      ':62F:D240301EUR70,00',
      '-',
    ].join('\r\n');
    const statements = await mt940Statements(Readable.from([text]));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      id: 'STARTUMS 7/1',
      account: '10020030/1234567',
      currency: 'EUR',
      opening: { amount: '-100.00', date: '2024-03-01' },
      closing: { amount: '-70.00', date: '2024-03-01' },
      entries: 2,
      sum: '29.5',
    });
    const { unbalanced, warnings } = statementWarnings(statements);
    expect(unbalanced).toBe(1);
    expect(warnings[0]).toMatchObject({
      code: 'STATEMENT_DOES_NOT_ADD_UP',
      line: 1,
      opening: '-100.00',
      closing: '-70.00',
      entries: 2,
      entriesSum: '29.5',
      difference: '0.5',
    });
    expect(warnings[0]?.message).toContain('off by 0.5');
  });

  it('a statement that does not add up, and one whose entry cannot be read (30 February), are told apart', async () => {
    const statement = (account: string, entry: string, closing: string) => [
      ':20:STMT',
      `:25:${account}`,
      ':28C:1',
      ':60F:C180417HUF25170637,10',
      entry,
      ':86:UTALAS',
      `:62F:C180418HUF${closing}`,
      '-',
    ];
    const off = await textStatements(
      statement('HU/1', ':61:1804180418CF2066637,00NTRFNONREF', '25281687,60'),
    );
    expect(statementWarnings(off).warnings.map((w) => [w.account, w.difference])).toEqual([
      ['HU/1', '-1955586.5'],
    ]);
    const february30 = await textStatements(
      statement('HU/2', ':61:1602300301DR6,00NMSCNONREF', '25170631,10'),
    );
    expect(february30[0]).toMatchObject({ unreadable: 1, entries: 0 });
    expect(statementWarnings(february30).unbalanced).toBe(0);
  });

  it('an MT942 interim report has no booked balances: no statement figures', async () => {
    expect(await textStatements(INTERIM_REPORT)).toEqual([]);
  });
});
