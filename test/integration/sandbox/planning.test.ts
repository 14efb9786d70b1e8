import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox } from '../../support/sandbox.js';

type Sb = Awaited<ReturnType<typeof withSandbox>>;
type Category = { id: number; name: string; type: string; parentId: number | null };

async function categories(sb: Sb, account = 1001): Promise<Category[]> {
  return (await sb.call('GET', '/categories', { account })).body as Category[];
}

async function categoryNamed(sb: Sb, name: string, account = 1001): Promise<Category> {
  const found = (await categories(sb, account)).find((c) => c.name === name);
  if (!found) throw new Error(`no category ${name}`);
  return found;
}

async function create(sb: Sb, body: Record<string, unknown>, account = 1001) {
  return sb.call('POST', '/categories', { account, body });
}

describe('sandbox categories', () => {
  let sb: Sb;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.close());

  it('lists the account tree as a bare array, with the uncategorized pair and the default tree', async () => {
    const list = await categories(sb);
    expect(Array.isArray(list)).toBe(true);
    const rent = list.find((c) => c.name === 'Rent');
    const opex = list.find((c) => c.name === 'Operating expenses');
    expect(rent).toEqual({
      id: expect.any(Number),
      name: 'Rent',
      type: 'EXPENSE_OPERATIONAL',
      parentId: opex?.id,
      enabledForPlannedTransactions: true,
    });
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Uncategorized income', type: 'INCOME_OPERATIONAL', parentId: null }),
        expect.objectContaining({
          name: 'Uncategorized expenses',
          type: 'EXPENSE_OPERATIONAL',
          parentId: null,
        }),
      ]),
    );
    // Another account's categories are its own.
    expect((await categories(sb, 1002)).map((c) => c.id)).not.toContain(rent?.id);
  });

  it("creates top-level and child categories; a child takes its parent's type", async () => {
    const top = await create(sb, { name: 'Taxes', type: 'EXPENSE_FINANCING' });
    expect(top.status).toBe(200);
    const parent = top.body as Category;
    expect(parent).toMatchObject({ name: 'Taxes', type: 'EXPENSE_FINANCING', parentId: null });
    expect(top.body).not.toHaveProperty('success');
    const child = await create(sb, { name: 'VAT', type: 'INCOME_OPERATIONAL', parentId: parent.id });
    expect(child.body).toMatchObject({ name: 'VAT', type: 'EXPENSE_FINANCING', parentId: parent.id });
    const got = await sb.call('GET', `/categories/${(child.body as Category).id}`, { account: 1001 });
    expect(got.body).toEqual(child.body);
  });

  it('refuses an unknown parent (404), a sibling with the same name (409) and a blank name (400)', async () => {
    const orphan = await create(sb, { name: 'Orphan', type: 'INCOME_OPERATIONAL', parentId: 424242 });
    expect(orphan.status).toBe(404);
    expect(orphan.body).toMatchObject({ error: 'CATEGORY_NOT_FOUND', causes: [{ field: 'parentId' }] });
    const opex = await categoryNamed(sb, 'Operating expenses');
    const twin = await create(sb, { name: 'Rent', type: 'EXPENSE_OPERATIONAL', parentId: opex.id });
    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({ error: 'CATEGORY_ALREADY_EXISTS' });
    // The same name elsewhere in the tree is fine.
    const invest = await categoryNamed(sb, 'Investments');
    expect((await create(sb, { name: 'Rent', type: 'EXPENSE_INVESTMENT', parentId: invest.id })).status).toBe(
      200,
    );
    expect((await create(sb, { name: '  ', type: 'EXPENSE_INVESTMENT' })).status).toBe(400);
    expect((await create(sb, { name: 'NoType' })).status).toBe(400);
  });

  it('renames and retypes; a top-level retype carries the subtree, a child cannot differ', async () => {
    const financing = await categoryNamed(sb, 'Financing');
    const loans = await categoryNamed(sb, 'Loans');
    const res = await sb.call('PATCH', `/categories/${financing.id}`, {
      account: 1001,
      body: { name: 'Funding', type: 'EXPENSE_FINANCING' },
    });
    expect(res.body).toMatchObject({ id: financing.id, name: 'Funding', type: 'EXPENSE_FINANCING' });
    expect(await categoryNamed(sb, 'Loans')).toMatchObject({ type: 'EXPENSE_FINANCING' });
    const childRetype = await sb.call('PATCH', `/categories/${loans.id}`, {
      account: 1001,
      body: { type: 'INCOME_FINANCING' },
    });
    expect(childRetype.status).toBe(400);
    expect(childRetype.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'type' }] });
    const clash = await sb.call('PATCH', `/categories/${financing.id}`, {
      account: 1001,
      body: { name: 'Revenue' },
    });
    expect(clash.status).toBe(409);
    expect(
      (await sb.call('PATCH', '/categories/999999', { account: 1001, body: { name: 'x' } })).status,
    ).toBe(404);
  });

  it('keeps the uncategorized categories fixed (409 CATEGORY_NOT_MODIFIABLE)', async () => {
    const uncategorized = await categoryNamed(sb, 'Uncategorized expenses');
    const path = `/categories/${uncategorized.id}`;
    for (const [method, body] of [
      ['PATCH', { name: 'Misc' }],
      ['PATCH', { type: 'EXPENSE_INVESTMENT' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await sb.call(method, path, { account: 1001, body });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'CATEGORY_NOT_MODIFIABLE' });
    }
  });

  it('deletes a leaf without plans; refuses one with subcategories or plans (409 CATEGORY_IN_USE)', async () => {
    const revenue = await categoryNamed(sb, 'Revenue');
    const parentDelete = await sb.call('DELETE', `/categories/${revenue.id}`, { account: 1001 });
    expect(parentDelete.status).toBe(409);
    expect(parentDelete.body).toMatchObject({ error: 'CATEGORY_IN_USE' });

    const software = await categoryNamed(sb, 'Software');
    await sb.call('POST', '/plans', {
      account: 1001,
      body: {
        categoryId: software.id,
        amount: -99,
        period: 'DAILY',
        date: '2026-03-03',
        type: 'ONE_TIME',
        name: 'x',
      },
    });
    const withPlans = await sb.call('DELETE', `/categories/${software.id}`, { account: 1001 });
    expect(withPlans.status).toBe(409);
    expect(withPlans.body).toMatchObject({ error: 'CATEGORY_IN_USE' });

    const sales = await categoryNamed(sb, 'Sales');
    const res = await sb.call('DELETE', `/categories/${sales.id}`, { account: 1001 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), id: sales.id });
    expect((await sb.call('GET', `/categories/${sales.id}`, { account: 1001 })).status).toBe(404);
    // Now a leaf, Revenue can go too.
    expect((await sb.call('DELETE', `/categories/${revenue.id}`, { account: 1001 })).status).toBe(200);
    expect((await sb.call('GET', '/categories/Sales', { account: 1001 })).status).toBe(400);
  });
});

describe('sandbox scenarios', () => {
  let sb: Sb;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.close());

  it('lists exactly one base scenario as a bare array and gets it; 404 SCENARIO_NOT_FOUND otherwise', async () => {
    const list = (await sb.call('GET', '/scenarios', { account: 1001 })).body as { id: number }[];
    expect(list).toEqual([{ id: expect.any(Number), name: 'Base case', isBaseCase: true }]);
    const id = list[0]?.id;
    expect((await sb.call('GET', `/scenarios/${id}`, { account: 1001 })).body).toEqual(list[0]);
    const foreign = await sb.call('GET', `/scenarios/${id}`, { account: 1002 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'SCENARIO_NOT_FOUND' });
    expect((await sb.call('GET', '/scenarios/base', { account: 1001 })).status).toBe(400);
    expect((await sb.call('GET', '/scenarios?page=0', { account: 1001 })).status).toBe(400);
  });
});
