import { describe, expect, it } from 'vitest';
import { formatReport, settleReport } from '../../../src/sources/format-report.js';
import type { BalanceUpdate } from '../../../src/sources/formats/statement-report.js';
import type { StatementTotals } from '../../../src/sources/formats/statement-totals.js';

const statement: StatementTotals = {
  line: 3,
  id: 'S1',
  account: 'DE02120300000000202051',
  currency: 'EUR',
  opening: { amount: '100.00', date: '2026-03-01' },
  closing: { amount: '150.00', date: '2026-03-02' },
  entries: 1,
  sum: '50.00',
  unreadable: 0,
};
const read = { count: 1, unbalanced: 0, warnings: [] };

describe('a format report, settled at the run’s end', () => {
  it('a file without statements reports nothing, and settles to nothing', async () => {
    expect(formatReport(undefined, false)).toEqual({});
    expect(formatReport(() => [], false)).toEqual({});
    expect(await settleReport({}, { balances: () => Promise.reject(new Error('not called')) })).toEqual({});
  });

  it('a stopped file proves no balance', () => {
    expect(formatReport(() => [statement], true)).toEqual({ statements: { ...read, candidates: [] } });
  });

  it('the kind’s settler applies the balances; without one, none is listed', async () => {
    const report = formatReport(() => [statement], false);
    const seen: unknown[] = [];
    const update: BalanceUpdate = {
      bankAccount: 'main',
      balanceDate: '2026-03-03',
      balanceReference: '150.00',
      statementLine: 3,
      outcome: 'updated',
      message: 'updated',
    };
    const settled = await settleReport(report, {
      balances: (candidates) => {
        seen.push(...candidates);
        return Promise.resolve([update]);
      },
    });
    expect(seen).toEqual([
      {
        account: statement.account,
        currency: 'EUR',
        balance: { amount: '150.00', date: '2026-03-03' },
        statementLine: 3,
      },
    ]);
    expect(settled).toEqual({ statements: { ...read, balances: [update] } });
    expect(await settleReport(report, undefined)).toEqual({ statements: { ...read, balances: [] } });
    expect(await settleReport(report, {})).toEqual({ statements: { ...read, balances: [] } });
  });

  it('a stopped or interrupted run applies none and lists each as not applied, for the next run', async () => {
    const report = formatReport(() => [statement], false);
    const settled = await settleReport(
      report,
      { balances: () => Promise.reject(new Error('not called')) },
      'the run stopped (X)',
    );
    expect(settled.statements?.balances).toEqual([
      {
        bankAccount: statement.account,
        balanceDate: '2026-03-03',
        balanceReference: '150.00',
        statementLine: 3,
        outcome: 'not-applied',
        message: 'not applied: the run stopped (X); the next run applies it',
      },
    ]);
  });
});
