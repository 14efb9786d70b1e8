import { afterEach, describe, expect, it } from 'vitest';
import type { PlanRequest } from '../../../src/contract/index.js';
import { syncPlansChunk } from '../../../src/kinds/plans/strategy.js';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import type { RecordOf } from '../../../src/sources/record-of.js';
import {
  byOutcome,
  closeStrategySandboxes,
  eachOnce,
  outcomeAt,
  strategySandbox,
} from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

type PlanRecord = RecordOf<'plans'>;

/** Plan k sits in month k (from January 2026), so no two share a period unless a test says so. */
function plan(k: number, over: Partial<PlanRequest> = {}): PlanRecord {
  const month = new Date(Date.UTC(2026, k, 1)).toISOString().slice(0, 10);
  const payload: PlanRequest = {
    name: `Rent ${k}`,
    amount: -1000 - k,
    period: 'MONTHLY',
    date: month,
    type: 'ONE_TIME',
    categoryName: 'Operating expenses > Rent',
    replaceCurrentValuesForThePeriod: true,
    ...over,
  };
  return {
    file: 'plans.csv',
    line: k + 2,
    externalId: `plan-${k}`,
    derivedId: true,
    amount: String(payload.amount),
    payload,
  };
}

const plans = (n: number, over: Partial<PlanRequest> = {}) =>
  Array.from({ length: n }, (_, k) => plan(k, over));

/** What the service holds: number of values and their sum. */
function totals(account: AccountRecord) {
  const values = [...account.plans.values()];
  return { count: values.length, sum: values.reduce((s, p) => s + p.amount, 0) };
}

describe('syncPlansChunk against the sandbox', () => {
  it('sets values with ids from planIds, and a rerun of a replace feed does not double them', async () => {
    const { ctx, account } = await strategySandbox();
    const input = plans(24);
    const first = await syncPlansChunk(input, ctx);
    expect(eachOnce(first, input)).toBe(true);
    expect(byOutcome(first)).toEqual({ created: 24 });
    expect(first[0]?.message).toBe('value set for the period (replace)');
    for (const [i, o] of first.entries()) {
      expect(account().plans.get(o.serviceId ?? -1)).toMatchObject({ amount: -1000 - i, name: `Rent ${i}` });
    }
    const once = totals(account());
    expect(once).toEqual({ count: 24, sum: -(1000 * 24 + (23 * 24) / 2) });

    const second = await syncPlansChunk(input, ctx);
    expect(byOutcome(second)).toEqual({ created: 24 });
    expect(totals(account())).toEqual(once);
  });

  it('without replace a rerun adds the values again (what replace protects against)', async () => {
    const { ctx, account } = await strategySandbox();
    const input = plans(3, { replaceCurrentValuesForThePeriod: false });
    const first = await syncPlansChunk(input, ctx);
    expect(first[0]?.message).toBe('value added to the period');
    await syncPlansChunk(input, ctx);
    expect(totals(account())).toEqual({ count: 6, sum: -2 * (1000 + 1001 + 1002) });
  });

  it('isolates a 404 CATEGORY_NOT_FOUND of the all-or-nothing bulk to its items and sets the rest', async () => {
    const { ctx, account, requests } = await strategySandbox();
    const input = plans(6);
    input[1] = plan(1, { categoryName: 'Operating expenses > Nope' });
    input[4] = plan(4, { categoryName: undefined, categoryId: 987654 });
    const outcomes = await syncPlansChunk(input, ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 4, rejected: 2 });
    expect(outcomeAt(outcomes, 3)).toMatchObject({ outcome: 'rejected', code: 'CATEGORY_NOT_FOUND' });
    expect(outcomeAt(outcomes, 6)).toMatchObject({ outcome: 'rejected', code: 'CATEGORY_NOT_FOUND' });
    expect(outcomeAt(outcomes, 6)?.message).toMatch(/categoryId/);
    expect(requests('createPlansBulk')).toEqual({ 404: 1, 200: 1 });
    expect(totals(account()).count).toBe(4);
  });

  it('isolates a 404 SCENARIO_NOT_FOUND and a 400 the same way', async () => {
    const { ctx, account } = await strategySandbox();
    const input = plans(4);
    input[0] = plan(0, { scenarioName: 'Worst case' });
    const scenario = await syncPlansChunk(input, ctx);
    expect(scenario.map((o) => o.code ?? o.outcome)).toEqual([
      'SCENARIO_NOT_FOUND',
      'created',
      'created',
      'created',
    ]);
    // A zero amount without a category cannot pick uncategorized income or expenses: 400.
    const zero = await syncPlansChunk([plan(5), plan(6, { categoryName: undefined, amount: 0 })], ctx);
    expect(zero.map((o) => o.code ?? o.outcome)).toEqual(['created', 'INVALID_REQUEST']);
    expect(totals(account()).count).toBe(4);
  });

  it('after a commit-then-500 resends replacing values (no doubling) but not adding ones', async () => {
    const { ctx, clock, account, requests } = await strategySandbox({
      script: [{ op: 'createPlansBulk', fault: 'commit-then-500' }],
    });
    const input = [
      ...plans(3),
      plan(3, { replaceCurrentValuesForThePeriod: false }),
      plan(4, { replaceCurrentValuesForThePeriod: false }),
    ];
    const outcomes = await syncPlansChunk(input, ctx);
    expect(outcomes.map((o) => o.code ?? o.outcome)).toEqual([
      'created',
      'created',
      'created',
      'AMBIGUOUS_WRITE',
      'AMBIGUOUS_WRITE',
    ]);
    expect(outcomes[3]?.outcome).toBe('failed');
    expect(outcomes[3]?.message).toMatch(/does not resend/);
    expect(clock.sleeps).toEqual([1_000]);
    expect(requests('createPlansBulk')).toEqual({ 500: 1, 200: 1 });
    // The committed attempt stored all five; the resend replaced the three replacing values.
    const byDate = new Map<string, number[]>();
    for (const p of account().plans.values()) byDate.set(p.date, [...(byDate.get(p.date) ?? []), p.amount]);
    expect([...byDate.values()].map((amounts) => amounts.length)).toEqual([1, 1, 1, 1, 1]);
    expect(totals(account()).sum).toBe(-(1000 + 1001 + 1002 + 1003 + 1004));
  });

  it('after 500s that stored nothing resends replacing values on the 1/2/4 s schedule, then fails them', async () => {
    const { ctx, clock, account } = await strategySandbox({
      script: [{ op: 'createPlansBulk', fault: '500', times: 4 }],
    });
    const outcomes = await syncPlansChunk(plans(2), ctx);
    expect(byOutcome(outcomes)).toEqual({ failed: 2 });
    expect(outcomes[0]?.code).toBe('AMBIGUOUS_WRITE');
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(totals(account()).count).toBe(0);
  });

  it('rejects a second replacing value for the same category, scenario, period and date in one chunk', async () => {
    const { ctx, account } = await strategySandbox();
    const input = [plan(0), plan(1), { ...plan(0, { amount: -5 }), line: 40 }];
    const outcomes = await syncPlansChunk(input, ctx);
    expect(eachOnce(outcomes, input)).toBe(true);
    expect(outcomes[2]).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
    expect(outcomes[2]?.message).toMatch(/line 2 of plans.csv/);
    expect(totals(account())).toEqual({ count: 2, sum: -2001 });
  });
});
