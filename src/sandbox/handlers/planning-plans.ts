import { type Cause, compiled, LIMITS, PlanRequest } from '../../contract/index.js';
import { handlers, ok } from '../context.js';
import { invalidRequest, SandboxFault } from '../fault.js';
import { UNCATEGORIZED } from '../seed.js';
import type { AccountRecord, CategoryRecord, PlanRecord, SandboxState } from '../state.js';
import { causesOf, checkBulkSize } from '../validation.js';
import { categoryById, categoryPath } from './planning-categories.js';
import {
  categoriesNamed,
  childrenNamed,
  periodKey,
  planIdsInPeriod,
  planIdsOf,
  putPlan,
  removePlan,
} from './planning-index.js';

/** Compiled once: every bulk item is checked against it. */
const PlanItem = compiled(PlanRequest);

/** Separator of the segments of a categoryName path ("Operating expenses > Rent"); blanks around it are ignored. */
export const CATEGORY_PATH_SEPARATOR = '>';

interface Target {
  categoryId: number;
  scenarioId: number;
}

function ambiguous(account: AccountRecord, name: string, ids: readonly number[]): SandboxFault {
  const paths = ids.flatMap((id) => {
    const category = account.categories.get(id);
    return category ? [`"${categoryPath(account, category)}"`] : [];
  });
  return invalidRequest(
    `categoryName "${name}" matches ${ids.length} categories (${paths.join(', ')}); send the full path or categoryId`,
    [{ field: 'categoryName', message: 'ambiguous' }],
  );
}

/**
 * categoryName is a path from the top level ("Operating expenses > Rent"); a name without a
 * separator (or one whose path does not resolve) is also accepted when exactly one category
 * anywhere in the tree bears it. O(depth) through the index, never a scan of the categories.
 */
function categoryByName(account: AccountRecord, name: string): CategoryRecord {
  const segments = name.split(CATEGORY_PATH_SEPARATOR).map((s) => s.trim());
  let ids: readonly number[] = [];
  if (segments.length > 1 && segments.every((s) => s !== '')) {
    let parentId: number | null = null;
    for (const segment of segments) {
      ids = childrenNamed(account, parentId, segment);
      if (ids.length !== 1) break;
      parentId = ids[0] ?? null;
    }
    if (ids.length > 1) throw ambiguous(account, name, ids);
  }
  if (ids.length !== 1) ids = categoriesNamed(account, name);
  if (ids.length > 1) throw ambiguous(account, name, ids);
  const category = ids[0] === undefined ? undefined : account.categories.get(ids[0]);
  if (category) return category;
  throw new SandboxFault(
    404,
    'CATEGORY_NOT_FOUND',
    `No category "${name}" in this account; name it by its path from the top level (e.g. "Operating expenses > Rent") or send categoryId`,
    [{ field: 'categoryName', message: 'no such category in the account' }],
  );
}

function uncategorized(account: AccountRecord, amount: number): CategoryRecord {
  if (amount === 0) {
    throw invalidRequest(
      'A plan without categoryId or categoryName needs a non-zero amount: its sign picks uncategorized income or expenses; name a category',
      [{ field: 'amount', message: 'zero amount without a category' }],
    );
  }
  const { name } = amount < 0 ? UNCATEGORIZED.expense : UNCATEGORIZED.income;
  const id = childrenNamed(account, null, name)[0];
  const category = id === undefined ? undefined : account.categories.get(id);
  // Every account is born with both (addAccountDefaults) and they cannot be renamed or deleted.
  if (!category) throw new Error(`account ${account.id} lacks its "${name}" category`);
  return category;
}

function scenarioOf(account: AccountRecord, plan: Pick<PlanRequest, 'scenarioId' | 'scenarioName'>): number {
  if (plan.scenarioId !== undefined) {
    if (account.scenarios.has(plan.scenarioId)) return plan.scenarioId;
    throw new SandboxFault(
      404,
      'SCENARIO_NOT_FOUND',
      `Scenario ${plan.scenarioId} does not exist in this account; take scenarioId from GET /scenarios`,
      [{ field: 'scenarioId', message: 'no such scenario in the account' }],
    );
  }
  // A scan, but of a handful: the API cannot create scenarios, an account has its base case plus seeded ones.
  for (const scenario of account.scenarios.values()) {
    if (plan.scenarioName === undefined ? scenario.isBaseCase : scenario.name === plan.scenarioName)
      return scenario.id;
  }
  if (plan.scenarioName === undefined) throw new Error(`account ${account.id} has no base scenario`);
  throw new SandboxFault(
    404,
    'SCENARIO_NOT_FOUND',
    `No scenario "${plan.scenarioName}" in this account; take the name or id from GET /scenarios`,
    [{ field: 'scenarioName', message: 'no such scenario in the account' }],
  );
}

/** Where a plan goes: categoryId before categoryName before the amount's sign; scenarioId before scenarioName before the base case. */
function targetOf(account: AccountRecord, plan: PlanRequest): Target {
  const category =
    plan.categoryId !== undefined
      ? categoryById(account, plan.categoryId, 'categoryId')
      : plan.categoryName !== undefined
        ? categoryByName(account, plan.categoryName)
        : uncategorized(account, plan.amount);
  if (!category.enabledForPlannedTransactions) {
    const field = plan.categoryId !== undefined ? 'categoryId' : 'categoryName';
    throw invalidRequest(
      `Category ${category.id} is not enabled for planned values; choose another category`,
      [{ field, message: 'category not enabled for planned transactions' }],
    );
  }
  return { categoryId: category.id, scenarioId: scenarioOf(account, plan) };
}

/** replaceCurrentValuesForThePeriod: the period then holds exactly this value; otherwise it is added to the others. */
function storePlan(state: SandboxState, account: AccountRecord, plan: PlanRequest, target: Target): number {
  const record: PlanRecord = {
    id: state.nextId(),
    ...target,
    amount: plan.amount,
    period: plan.period,
    date: plan.date,
    type: plan.type,
    name: plan.name,
  };
  if (plan.replaceCurrentValuesForThePeriod) {
    for (const id of planIdsInPeriod(account, periodKey(record))) removePlan(account, id);
  }
  putPlan(account, record);
  return record.id;
}

/** A bulk request is all or nothing: every item is checked before the first is stored. */
function validItems(raw: unknown): PlanRequest[] {
  const items = checkBulkSize(raw, '(body)', LIMITS.bulkItems.max);
  const plans: PlanRequest[] = [];
  const causes: Cause[] = [];
  items.forEach((item, index) => {
    const result = PlanItem.safeParse(item);
    if (result.success) plans.push(result.data);
    else for (const cause of causesOf(result.error)) causes.push({ index, ...cause });
  });
  const first = causes[0];
  if (first) {
    throw invalidRequest(
      `Invalid plan at index ${first.index}: ${first.field}: ${first.message} (${causes.length} problem(s) in all); nothing was stored, fix the items and send the array again`,
      causes,
    );
  }
  return plans;
}

function targetsOf(account: AccountRecord, plans: PlanRequest[]): Target[] {
  const targets: Target[] = [];
  const causes: Cause[] = [];
  let firstFault: SandboxFault | undefined;
  plans.forEach((plan, index) => {
    try {
      targets.push(targetOf(account, plan));
    } catch (error) {
      if (!(error instanceof SandboxFault)) throw error;
      firstFault ??= error;
      for (const cause of error.causes ?? [{ message: error.message }]) causes.push({ index, ...cause });
    }
  });
  if (firstFault) {
    throw new SandboxFault(
      firstFault.status,
      firstFault.code,
      `Plan at index ${causes[0]?.index}: ${firstFault.message} (${causes.length} problem(s) in all); nothing was stored`,
      causes,
    );
  }
  return targets;
}

export const planHandlers = handlers({
  createPlan: {
    handle(ctx) {
      const planId = storePlan(ctx.state, ctx.account, ctx.body, targetOf(ctx.account, ctx.body));
      return ok({ success: true, message: 'Plan created', planId });
    },
  },

  createPlansBulk: {
    // Validated here, item by item, so that more than 1000 items is BULK_LIMIT_EXCEEDED like every bulk endpoint.
    rawBody: true,
    handle(ctx) {
      const plans = validItems(ctx.rawBody);
      const targets = targetsOf(ctx.account, plans);
      const planIds = plans.map((plan, i) => storePlan(ctx.state, ctx.account, plan, targets[i] as Target));
      return ok({
        success: true,
        message: `${planIds.length} plans created`,
        createdCount: planIds.length,
        planIds,
      });
    },
  },

  deletePlans: {
    handle(ctx) {
      const { account, query } = ctx;
      const category = categoryById(account, query.categoryId, 'categoryId');
      const scenarioId = scenarioOf(account, { scenarioId: query.scenarioId });
      const ids = planIdsOf(account, category.id, scenarioId);
      for (const id of ids) removePlan(account, id);
      return ok({ success: true, message: `${ids.length} plans deleted`, deletedCount: ids.length });
    },
  },
});
