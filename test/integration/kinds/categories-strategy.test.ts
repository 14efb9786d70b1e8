import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CategoryType } from '../../../src/contract/index.js';
import { heldCategories } from '../../../src/kinds/categories/held.js';
import type { CategoryRecord } from '../../../src/kinds/categories/payload.js';
import { syncCategoriesChunk } from '../../../src/kinds/categories/strategy.js';
import type { UpsertOptions } from '../../../src/sync/writes/field-diff.js';
import { ACCOUNT, byOutcome, closeStrategySandboxes, eachOnce, strategySandbox } from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

function category(path: string, type: CategoryType = 'INCOME_OPERATIONAL', line = 2): CategoryRecord {
  return {
    file: 'categories.csv',
    line,
    externalId: `erpb2-${line}`,
    derivedId: true,
    payload: { path, type },
  };
}

const UPSERT: UpsertOptions = { mode: 'upsert', emptyCellClears: false, mappedFields: ['path', 'type'] };

type Sandbox = Awaited<ReturnType<typeof strategySandbox>>;

/** The sandbox account's categories at a path ("A/B"), by walking names from the top level. */
function at(sb: Sandbox, path: string) {
  const all = [...sb.account().categories.values()];
  let level = all.filter((c) => c.parentId === null);
  let found: (typeof all)[number][] = [];
  for (const name of path.split('/')) {
    found = level.filter((c) => c.name === name);
    level = all.filter((c) => found.some((f) => f.id === c.parentId));
  }
  return found;
}

describe('syncCategoriesChunk against the sandbox', () => {
  it('creates a tree parents first whatever the file order; a rerun skips all; reports keep input order', async () => {
    const sb = await strategySandbox();
    const input = [
      category('Consulting income/Workshops', 'INCOME_OPERATIONAL', 2),
      category(' Consulting income ', 'INCOME_OPERATIONAL', 3),
      category('Consulting income / Workshops/Remote', 'INCOME_OPERATIONAL', 4),
      category('Revenue/Licences', 'INCOME_OPERATIONAL', 5), // under the seeded Revenue
    ];
    const first = await syncCategoriesChunk(input, UPSERT, sb.ctx);
    expect(eachOnce(first, input)).toBe(true);
    expect(byOutcome(first)).toEqual({ created: 4 });
    const [workshops] = at(sb, 'Consulting income/Workshops');
    expect(workshops).toMatchObject({ id: first[0]?.serviceId, parentId: first[1]?.serviceId });
    expect(at(sb, 'Consulting income/Workshops/Remote')[0]?.parentId).toBe(workshops?.id);
    expect(at(sb, 'Revenue/Licences')).toHaveLength(1);
    expect(sb.requests('listCategories')).toEqual({ 200: 1 });

    const second = await syncCategoriesChunk(input, UPSERT, sb.ctx);
    expect(byOutcome(second)).toEqual({ skipped: 4 });
    expect(sb.requests('createCategory')).toEqual({ 200: 4 });
  });

  it('a parent of another type, a missing parent and a duplicate path are rejected with the reason', async () => {
    const sb = await strategySandbox();
    const input = [
      category('Revenue/Grants', 'INCOME_FINANCING', 2),
      category('Nowhere/Child', 'INCOME_OPERATIONAL', 3),
      category('Travel', 'EXPENSE_OPERATIONAL', 4),
      category('Travel/Trains', 'EXPENSE_INVESTMENT', 5),
      category('Travel', 'EXPENSE_OPERATIONAL', 6),
    ];
    const outcomes = await syncCategoriesChunk(input, UPSERT, sb.ctx);
    expect(outcomes.map((o) => [o.line, o.outcome, o.code])).toEqual([
      [2, 'rejected', 'CATEGORY_TYPE_MISMATCH'],
      [3, 'rejected', 'PARENT_NOT_FOUND'],
      [4, 'created', undefined],
      [5, 'rejected', 'CATEGORY_TYPE_MISMATCH'],
      [6, 'rejected', 'DUPLICATE_IN_SOURCE'],
    ]);
    expect(outcomes[0]?.message).toContain(
      'its parent "Revenue" is INCOME_OPERATIONAL and a subcategory takes its parent\'s type, but the record says INCOME_FINANCING',
    );
    expect(outcomes[1]?.message).toContain('add a record for "Nowhere" to the export');
    expect(outcomes[4]?.message).toContain('"Travel" already appears on line 4 of categories.csv');
    expect(sb.requests('createCategory')).toEqual({ 200: 1 });
  });

  it('retypes a top-level category (its subcategories follow); mode insert skips, mode update rejects a missing one', async () => {
    const sb = await strategySandbox();
    const retype = await syncCategoriesChunk(
      [category('Financing', 'EXPENSE_FINANCING', 2), category('Financing/Loans', 'EXPENSE_FINANCING', 3)],
      UPSERT,
      sb.ctx,
    );
    expect(retype.map((o) => [o.outcome, o.message])).toEqual([
      ['updated', 'changed: type'],
      ['skipped', 'unchanged'],
    ]);
    expect(at(sb, 'Financing/Loans')[0]?.type).toBe('EXPENSE_FINANCING');
    const insert = await syncCategoriesChunk(
      [category('Revenue', 'EXPENSE_OPERATIONAL')],
      { ...UPSERT, mode: 'insert' },
      sb.ctx,
    );
    expect(insert[0]).toMatchObject({ outcome: 'skipped', message: 'exists; feed mode insert' });
    const update = await syncCategoriesChunk([category('Brand new')], { ...UPSERT, mode: 'update' }, sb.ctx);
    expect(update[0]).toMatchObject({ outcome: 'rejected', code: 'NOT_FOUND_FOR_UPDATE' });
    expect(update[0]?.message).toContain('no category "Brand new" at that path in the account');
    expect(sb.requests('createCategory')).toEqual({});
  });

  it('a service category whose name holds the separator is never taken for a path', async () => {
    const sb = await strategySandbox();
    await sb.client.createCategory(ACCOUNT, { name: 'Fees/Charges', type: 'EXPENSE_OPERATIONAL' });
    const outcomes = await syncCategoriesChunk(
      [category('Fees', 'EXPENSE_OPERATIONAL', 2), category('Fees/Charges', 'EXPENSE_OPERATIONAL', 3)],
      UPSERT,
      sb.ctx,
    );
    expect(byOutcome(outcomes)).toEqual({ created: 2 });
    expect(at(sb, 'Fees/Charges')[0]?.parentId).toBe(outcomes[0]?.serviceId);
  });

  it('CATEGORY_ALREADY_EXISTS on create (created by someone else meanwhile): found, then compared', async () => {
    const sb = await strategySandbox();
    vi.spyOn(sb.client, 'listCategories').mockImplementationOnce(async () => {
      await sb.client.createCategory(ACCOUNT, { name: 'Late', type: 'EXPENSE_OPERATIONAL' });
      return [];
    });
    const outcomes = await syncCategoriesChunk([category('Late', 'EXPENSE_OPERATIONAL')], UPSERT, sb.ctx);
    expect(outcomes[0]).toMatchObject({
      outcome: 'skipped',
      serviceId: at(sb, 'Late')[0]?.id,
      message: 'the service already holds path "Late" (CATEGORY_ALREADY_EXISTS on create); unchanged',
    });
    expect(at(sb, 'Late')).toHaveLength(1);
  });
});

describe('ambiguous creates (fault injection): no category created twice', () => {
  it.each([
    { fault: 'commit-then-reset' as const, counts: { reset: 2, 200: 1 } },
    { fault: 'commit-then-500' as const, counts: { 500: 2, 200: 1 } },
  ])(
    '$fault on two creates of a tree: re-listed, not resent; the child finds its confirmed parent',
    async ({ fault, counts }) => {
      const sb = await strategySandbox({ script: [{ op: 'createCategory', fault, times: 2 }] });
      const input = [
        category('Tree/Leaf', 'INCOME_OPERATIONAL', 2),
        category('Tree', 'INCOME_OPERATIONAL', 3),
        category('Other', 'INCOME_OPERATIONAL', 4),
      ];
      const outcomes = await syncCategoriesChunk(input, UPSERT, sb.ctx);
      expect(byOutcome(outcomes)).toEqual({ created: 3 });
      // Written by depth (Tree, Other, then Tree/Leaf): the faults hit the two top-level creates.
      expect(outcomes.map((o) => o.message)).toEqual([
        undefined,
        'created (confirmed by a re-check after an ambiguous answer)',
        'created (confirmed by a re-check after an ambiguous answer)',
      ]);
      expect(at(sb, 'Tree/Leaf')[0]?.parentId).toBe(outcomes[1]?.serviceId);
      expect(sb.requests('createCategory')).toEqual(counts);
      for (const path of ['Tree', 'Tree/Leaf', 'Other']) expect(at(sb, path), path).toHaveLength(1);
    },
  );

  it('a 500 that created nothing and a 429: resent once the listing shows it missing, created once', async () => {
    const sb = await strategySandbox({
      script: [
        { op: 'createCategory', fault: '500' },
        { op: 'createCategory', fault: '429', retryAfterSeconds: 2 },
      ],
    });
    const outcomes = await syncCategoriesChunk([category('Solo')], UPSERT, sb.ctx);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(sb.requests('createCategory')).toEqual({ 500: 1, 429: 1, 200: 1 });
    expect(at(sb, 'Solo')).toHaveLength(1);
  });
});

describe('heldCategories (dry run)', () => {
  it('skips existing categories of the same type; new and retyped ones would be sent', async () => {
    const sb = await strategySandbox();
    const records = [
      category('Revenue'),
      category('Revenue', 'EXPENSE_OPERATIONAL', 3),
      category('New', 'INCOME_OPERATIONAL', 4),
    ];
    const held = await heldCategories(records, { ...UPSERT, mappedFields: ['path', 'type'] }, sb.ctx);
    expect(records.map((r) => held(r)?.message)).toEqual([
      'unchanged (dry run: read-only check)',
      undefined,
      undefined,
    ]);
    expect(sb.requests('createCategory')).toEqual({});
  });
});
