import type { AccountRecord, CategoryRecord, PlanRecord } from '../state.js';

/**
 * Per-account lookup indexes of the planning resources, so plan creation (millions of items in
 * benchmarks) resolves categories by path and finds a period's values without scanning.
 *
 * Kept in WeakMaps keyed by the account record rather than in the frame's state: a reset or a
 * deleted account drops them with the records. Built lazily; each index remembers the size of the
 * map it mirrors and is rebuilt when that differs, which catches records added or removed behind
 * its back (a seed, a test poking the state) at O(1) cost per request.
 */

/** Parent key of top-level categories (ids are positive, so 0 never names a category). */
const ROOT = 0;

interface CategoryIndex {
  size: number;
  /** parent id (ROOT for top level) -> name -> ids; names are unique among siblings unless seeded otherwise. */
  children: Map<number, Map<string, number[]>>;
  /** name -> ids anywhere in the tree (plain-name lookups). */
  byName: Map<string, number[]>;
}

interface PlanIndex {
  size: number;
  /** periodKey -> ids of the values stored for that category, scenario, period and date. */
  byPeriod: Map<string, Set<number>>;
  /** `${categoryId}|${scenarioId}` -> ids (delete plans, category in use). */
  byCategoryScenario: Map<string, Set<number>>;
}

const categoryIndexes = new WeakMap<AccountRecord, CategoryIndex>();
const planIndexes = new WeakMap<AccountRecord, PlanIndex>();

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function pull<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) return;
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
  if (list.length === 0) map.delete(key);
}

function addToCategoryIndex(index: CategoryIndex, category: CategoryRecord): void {
  const parent = category.parentId ?? ROOT;
  let siblings = index.children.get(parent);
  if (!siblings) {
    siblings = new Map();
    index.children.set(parent, siblings);
  }
  push(siblings, category.name, category.id);
  push(index.byName, category.name, category.id);
}

function categoryIndex(account: AccountRecord): CategoryIndex {
  let index = categoryIndexes.get(account);
  if (!index || index.size !== account.categories.size) {
    index = { size: account.categories.size, children: new Map(), byName: new Map() };
    for (const category of account.categories.values()) addToCategoryIndex(index, category);
    categoryIndexes.set(account, index);
  }
  return index;
}

/** Stores a new category. */
export function putCategory(account: AccountRecord, category: CategoryRecord): void {
  const index = categoryIndex(account);
  account.categories.set(category.id, category);
  addToCategoryIndex(index, category);
  index.size = account.categories.size;
}

function unlink(index: CategoryIndex, category: CategoryRecord): void {
  const parent = category.parentId ?? ROOT;
  const siblings = index.children.get(parent);
  if (siblings) {
    pull(siblings, category.name, category.id);
    if (siblings.size === 0) index.children.delete(parent);
  }
  pull(index.byName, category.name, category.id);
}

/** Renames in place (the category keeps its position in listings). */
export function renameCategory(account: AccountRecord, category: CategoryRecord, name: string): void {
  const index = categoryIndex(account);
  unlink(index, category);
  category.name = name;
  addToCategoryIndex(index, category);
}

export function removeCategory(account: AccountRecord, category: CategoryRecord): void {
  const index = categoryIndex(account);
  account.categories.delete(category.id);
  unlink(index, category);
  index.size = account.categories.size;
}

/** Ids of the children of `parentId` (null: top level) called `name`. */
export function childrenNamed(
  account: AccountRecord,
  parentId: number | null,
  name: string,
): readonly number[] {
  return (
    categoryIndex(account)
      .children.get(parentId ?? ROOT)
      ?.get(name) ?? []
  );
}

/** Ids of every category called `name`, at any depth. */
export function categoriesNamed(account: AccountRecord, name: string): readonly number[] {
  return categoryIndex(account).byName.get(name) ?? [];
}

/** Ids of the direct children of a category. */
export function childIds(account: AccountRecord, id: number): number[] {
  const siblings = categoryIndex(account).children.get(id);
  return siblings ? [...siblings.values()].flat() : [];
}

// Plans --------------------------------------------------------------------------------------------

export const periodKey = (p: Pick<PlanRecord, 'categoryId' | 'scenarioId' | 'period' | 'date'>): string =>
  `${p.categoryId}|${p.scenarioId}|${p.period}|${p.date}`;
const pairKey = (categoryId: number, scenarioId: number): string => `${categoryId}|${scenarioId}`;

function addToSet(map: Map<string, Set<number>>, key: string, id: number): void {
  const set = map.get(key);
  if (set) set.add(id);
  else map.set(key, new Set([id]));
}

function deleteFromSet(map: Map<string, Set<number>>, key: string, id: number): void {
  const set = map.get(key);
  if (set?.delete(id) && set.size === 0) map.delete(key);
}

function planIndex(account: AccountRecord): PlanIndex {
  let index = planIndexes.get(account);
  if (!index || index.size !== account.plans.size) {
    index = { size: account.plans.size, byPeriod: new Map(), byCategoryScenario: new Map() };
    for (const plan of account.plans.values()) {
      addToSet(index.byPeriod, periodKey(plan), plan.id);
      addToSet(index.byCategoryScenario, pairKey(plan.categoryId, plan.scenarioId), plan.id);
    }
    planIndexes.set(account, index);
  }
  return index;
}

export function putPlan(account: AccountRecord, plan: PlanRecord): void {
  const index = planIndex(account);
  account.plans.set(plan.id, plan);
  addToSet(index.byPeriod, periodKey(plan), plan.id);
  addToSet(index.byCategoryScenario, pairKey(plan.categoryId, plan.scenarioId), plan.id);
  index.size = account.plans.size;
}

export function removePlan(account: AccountRecord, id: number): void {
  const plan = account.plans.get(id);
  if (!plan) return;
  const index = planIndex(account);
  account.plans.delete(id);
  deleteFromSet(index.byPeriod, periodKey(plan), id);
  deleteFromSet(index.byCategoryScenario, pairKey(plan.categoryId, plan.scenarioId), id);
  index.size = account.plans.size;
}

/** Ids of the values stored for one category, scenario, period and date (a copy: safe to remove while iterating). */
export function planIdsInPeriod(account: AccountRecord, key: string): number[] {
  const set = planIndex(account).byPeriod.get(key);
  return set ? [...set] : [];
}

export function planIdsOf(account: AccountRecord, categoryId: number, scenarioId: number): number[] {
  const set = planIndex(account).byCategoryScenario.get(pairKey(categoryId, scenarioId));
  return set ? [...set] : [];
}

/** Whether any scenario holds plans of the category (scenarios are few: one lookup each). */
export function categoryHasPlans(account: AccountRecord, categoryId: number): boolean {
  const index = planIndex(account);
  for (const scenarioId of account.scenarios.keys())
    if (index.byCategoryScenario.has(pairKey(categoryId, scenarioId))) return true;
  return false;
}
