import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanRecord } from '../../../src/sandbox/state.js';
import { withSandbox } from '../../support/sandbox.js';

type Sb = Awaited<ReturnType<typeof withSandbox>>;

const plan = (fields: Record<string, unknown>) => ({
  amount: -100,
  period: 'MONTHLY',
  date: '2026-01-01',
  type: 'ONE_TIME',
  name: 'Plan',
  ...fields,
});

/** Plans are not readable through the API (the spec shows no GET), so tests look into the sandbox state. */
const plansOf = (sb: Sb, account = 1001): PlanRecord[] => [
  ...(sb.sandbox.runtime.state.accounts.get(account)?.plans.values() ?? []),
];
const planById = (sb: Sb, id: number) => sb.sandbox.runtime.state.accounts.get(1001)?.plans.get(id);

function ids(sb: Sb) {
  const account = sb.sandbox.runtime.state.accounts.get(1001)!;
  const byName = (name: string) => [...account.categories.values()].find((c) => c.name === name)!.id;
  const base = [...account.scenarios.values()].find((s) => s.isBaseCase)!.id;
  return { byName, base };
}

describe('sandbox plans', () => {
  let sb: Sb;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.close());
  const post = (body: unknown, path = '/plans') => sb.call('POST', path, { account: 1001, body });

  it('creates a plan by categoryId in the base scenario and answers {success, message, planId}', async () => {
    const { byName, base } = ids(sb);
    const res = await post(plan({ categoryId: byName('Rent'), amount: -1200.5, name: 'Office' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), planId: expect.any(Number) });
    expect(planById(sb, (res.body as { planId: number }).planId)).toEqual({
      id: (res.body as { planId: number }).planId,
      categoryId: byName('Rent'),
      scenarioId: base,
      amount: -1200.5,
      period: 'MONTHLY',
      date: '2026-01-01',
      type: 'ONE_TIME',
      name: 'Office',
    });
  });

  it('resolves categoryName as a path ("A > B"), or as a unique plain name; categoryId wins', async () => {
    const { byName } = ids(sb);
    for (const categoryName of ['Operating expenses > Rent', 'Operating expenses>Rent', 'Rent']) {
      const res = await post(plan({ categoryName }));
      expect(planById(sb, (res.body as { planId: number }).planId)?.categoryId, categoryName).toBe(
        byName('Rent'),
      );
    }
    const top = await post(plan({ categoryName: 'Revenue', amount: 5 }));
    expect(planById(sb, (top.body as { planId: number }).planId)?.categoryId).toBe(byName('Revenue'));
    const both = await post(plan({ categoryId: byName('Salaries'), categoryName: 'No such thing' }));
    expect(planById(sb, (both.body as { planId: number }).planId)?.categoryId).toBe(byName('Salaries'));
  });

  it('answers 404 CATEGORY_NOT_FOUND for an unknown category and 400 for an ambiguous plain name', async () => {
    for (const body of [
      plan({ categoryName: 'Operating expenses > Travel' }),
      plan({ categoryId: 987654 }),
    ]) {
      const res = await post(body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'CATEGORY_NOT_FOUND' });
    }
    const invest = ids(sb).byName('Investments');
    await sb.call('POST', '/categories', {
      account: 1001,
      body: { name: 'Rent', type: 'EXPENSE_INVESTMENT', parentId: invest },
    });
    const ambiguous = await post(plan({ categoryName: 'Rent' }));
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'categoryName' }] });
    expect((ambiguous.body as { message: string }).message).toContain('Investments > Rent');
    expect((await post(plan({ categoryName: 'Investments > Rent' }))).status).toBe(200);
  });

  it('sends plans without a category to uncategorized expenses or income by sign; zero is refused', async () => {
    const { byName } = ids(sb);
    const expense = await post(plan({ amount: -1 }));
    expect(planById(sb, (expense.body as { planId: number }).planId)?.categoryId).toBe(
      byName('Uncategorized expenses'),
    );
    const income = await post(plan({ amount: 1 }));
    expect(planById(sb, (income.body as { planId: number }).planId)?.categoryId).toBe(
      byName('Uncategorized income'),
    );
    const zero = await post(plan({ amount: 0 }));
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'amount' }] });
  });

  it('picks the scenario by id, else by name, else the base case; unknown ones are 404 SCENARIO_NOT_FOUND', async () => {
    const { base } = ids(sb);
    const byName = await post(plan({ scenarioName: 'Base case' }));
    expect(planById(sb, (byName.body as { planId: number }).planId)?.scenarioId).toBe(base);
    for (const body of [plan({ scenarioId: 55555 }), plan({ scenarioName: 'Worst case' })]) {
      const res = await post(body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'SCENARIO_NOT_FOUND' });
    }
  });

  it('adds values for a period by default and replaces them with replaceCurrentValuesForThePeriod', async () => {
    const { byName } = ids(sb);
    const loans = byName('Loans');
    const inPeriod = () =>
      plansOf(sb).filter((p) => p.categoryId === loans && p.period === 'MONTHLY' && p.date === '2026-05-01');
    await post(plan({ categoryId: loans, amount: 100, date: '2026-05-01' }));
    await post(
      plan({ categoryId: loans, amount: 50, date: '2026-05-01', replaceCurrentValuesForThePeriod: false }),
    );
    await post(plan({ categoryId: loans, amount: 7, date: '2026-06-01' }));
    await post(plan({ categoryId: loans, amount: 3, period: 'DAILY', date: '2026-05-01' }));
    expect(inPeriod().map((p) => p.amount)).toEqual([100, 50]);

    await post(
      plan({ categoryId: loans, amount: 80, date: '2026-05-01', replaceCurrentValuesForThePeriod: true }),
    );
    expect(inPeriod().map((p) => p.amount)).toEqual([80]);
    // Other dates and other periods on the same date keep their values.
    expect(plansOf(sb).some((p) => p.categoryId === loans && p.date === '2026-06-01')).toBe(true);
    expect(plansOf(sb).some((p) => p.categoryId === loans && p.period === 'DAILY' && p.amount === 3)).toBe(
      true,
    );
  });

  it('refuses date rules and malformed plans with 400 INVALID_REQUEST naming the field', async () => {
    for (const [body, field] of [
      [plan({ date: '2026-01-15' }), 'date'],
      [plan({ period: 'WEEKLY', date: '2026-01-04' }), 'date'],
      [plan({ name: '' }), 'name'],
      [plan({ type: 'RECURRING' }), 'type'],
      [plan({ amount: 1e17 }), 'amount'],
      [plan({ note: 'x' }), 'note'],
    ] as const) {
      const res = await post(body);
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({
        error: 'INVALID_REQUEST',
        causes: [expect.objectContaining({ field })],
      });
    }
    expect((await post(plan({ period: 'WEEKLY', date: '2026-01-05' }))).status).toBe(200);
  });

  it('exposes no way to read plans under /v2', async () => {
    expect((await sb.call('GET', '/plans', { account: 1001 })).status).toBe(405);
  });
});

describe('sandbox bulk plans and plan deletion', () => {
  let sb: Sb;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.close());
  const bulk = (body: unknown) => sb.call('POST', '/plans/bulk', { account: 1001, body });

  it('creates a JSON array of plans in order, applying replace item by item', async () => {
    const { byName } = ids(sb);
    const rent = byName('Rent');
    const res = await bulk([
      plan({ categoryId: rent, amount: -10 }),
      plan({ categoryName: 'Operating expenses > Salaries', amount: -20 }),
      plan({ categoryId: rent, amount: -30, replaceCurrentValuesForThePeriod: true }),
    ]);
    expect(res.status).toBe(200);
    const body = res.body as { planIds: number[] };
    expect(body).toEqual({
      success: true,
      message: expect.any(String),
      createdCount: 3,
      planIds: expect.any(Array),
    });
    expect(body.planIds).toHaveLength(3);
    // The third item replaced the first: same category, scenario, period and date.
    expect(planById(sb, body.planIds[0]!)).toBeUndefined();
    expect(planById(sb, body.planIds[1]!)).toMatchObject({ categoryId: byName('Salaries'), amount: -20 });
    expect(planById(sb, body.planIds[2]!)).toMatchObject({ categoryId: rent, amount: -30 });
  });

  it('fails the whole request when an item is invalid, with the item index in causes, storing nothing', async () => {
    const before = plansOf(sb).length;
    const invalid = await bulk([plan({}), plan({}), plan({ date: '2026-02-02' })]);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ index: 2, field: 'date' }] });
    const unknown = await bulk([plan({}), plan({ categoryName: 'Nope' }), plan({ scenarioId: 4 })]);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      error: 'CATEGORY_NOT_FOUND',
      causes: [
        { index: 1, field: 'categoryName' },
        { index: 2, field: 'scenarioId' },
      ],
    });
    expect(plansOf(sb)).toHaveLength(before);
  });

  it('takes 1 to 1000 items: 0 is INVALID_REQUEST, 1001 is BULK_LIMIT_EXCEEDED, an object is refused', async () => {
    const empty = await bulk([]);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'INVALID_REQUEST' });
    const tooMany = await bulk(Array.from({ length: 1001 }, () => plan({})));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: 'BULK_LIMIT_EXCEEDED' });
    const wrapped = await bulk({ plans: [plan({})] });
    expect(wrapped.status).toBe(400);
    expect(wrapped.body).toMatchObject({ error: 'INVALID_REQUEST' });
    const full = await bulk(Array.from({ length: 1000 }, (_, i) => plan({ amount: -(i + 1) })));
    expect(full.body).toMatchObject({ createdCount: 1000 });
  });

  it('deletes all plans of one category and scenario, answering deletedCount', async () => {
    const { byName, base } = ids(sb);
    const software = byName('Software');
    await bulk([plan({ categoryId: software }), plan({ categoryId: software, date: '2026-02-01' })]);
    const others = plansOf(sb).filter((p) => p.categoryId !== software).length;
    const res = await sb.call('DELETE', `/plans?categoryId=${software}&scenarioId=${base}`, {
      account: 1001,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), deletedCount: 2 });
    expect(plansOf(sb).filter((p) => p.categoryId === software)).toEqual([]);
    expect(plansOf(sb)).toHaveLength(others);
    const again = await sb.call('DELETE', `/plans?categoryId=${software}&scenarioId=${base}`, {
      account: 1001,
    });
    expect(again.body).toMatchObject({ deletedCount: 0 });
    // And the category, now without plans, can be deleted.
    expect((await sb.call('DELETE', `/categories/${software}`, { account: 1001 })).status).toBe(200);
  });

  it('refuses deletePlans for unknown ids (404) and missing or non-integer query values (400)', async () => {
    const { byName, base } = ids(sb);
    const unknownCategory = await sb.call('DELETE', `/plans?categoryId=1&scenarioId=${base}`, {
      account: 1001,
    });
    expect(unknownCategory.body).toMatchObject({ error: 'CATEGORY_NOT_FOUND' });
    const rent = byName('Rent');
    const unknownScenario = await sb.call('DELETE', `/plans?categoryId=${rent}&scenarioId=1`, {
      account: 1001,
    });
    expect(unknownScenario.body).toMatchObject({ error: 'SCENARIO_NOT_FOUND' });
    for (const query of [`categoryId=${rent}`, `categoryId=${rent}&scenarioId=x`]) {
      expect((await sb.call('DELETE', `/plans?${query}`, { account: 1001 })).status, query).toBe(400);
    }
  });
});
