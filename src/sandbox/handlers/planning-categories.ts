import type { CategoryType } from '../../contract/index.js';
import { handlers, ok } from '../context.js';
import { invalidRequest, SandboxFault } from '../fault.js';
import { UNCATEGORIZED } from '../seed.js';
import { type AccountRecord, type CategoryRecord, publicView } from '../state.js';
import { recordAt } from './path-ids.js';
import {
  categoryHasPlans,
  childIds,
  childrenNamed,
  putCategory,
  removeCategory,
  renameCategory,
} from './planning-index.js';

export const categoryView = (category: CategoryRecord) => publicView(category);

const SYSTEM_NAMES: ReadonlySet<string> = new Set([UNCATEGORIZED.income.name, UNCATEGORIZED.expense.name]);

/**
 * The two top-level "Uncategorized" categories receive plans sent without a category (spec), so
 * they are fixed: renaming, retyping or deleting them would leave such plans nowhere to go.
 * Sibling names are unique, so name plus top level identifies them.
 */
export const isSystemCategory = (category: CategoryRecord): boolean =>
  category.parentId === null && SYSTEM_NAMES.has(category.name);

/** The category's path from the top level, as plans name it: "Operating expenses > Rent". */
export function categoryPath(account: AccountRecord, category: CategoryRecord): string {
  const names = [category.name];
  let parentId = category.parentId;
  for (let depth = 0; parentId !== null && depth < 64; depth++) {
    const parent = account.categories.get(parentId);
    if (!parent) break;
    names.unshift(parent.name);
    parentId = parent.parentId;
  }
  return names.join(' > ');
}

const categoryAt = (account: AccountRecord, params: Readonly<Record<string, string>>) =>
  recordAt(account.categories, params, 'id', 'CATEGORY_NOT_FOUND', 'category');

function assertFixedOk(category: CategoryRecord, action: string): void {
  if (isSystemCategory(category)) {
    throw new SandboxFault(
      409,
      'CATEGORY_NOT_MODIFIABLE',
      `"${category.name}" is a system category that receives plans without a category; it cannot be ${action}`,
    );
  }
}

/** Names are unique among siblings, so a category path always names one category. */
function assertNameFree(account: AccountRecord, parentId: number | null, name: string, self?: number): void {
  if (name.trim() === '') {
    throw invalidRequest('A category name must not be blank', [{ field: 'name', message: 'blank' }]);
  }
  if (childrenNamed(account, parentId, name).some((id) => id !== self)) {
    throw new SandboxFault(
      409,
      'CATEGORY_ALREADY_EXISTS',
      `A category "${name}" already exists ${parentId === null ? 'at the top level' : `under category ${parentId}`}; use it or choose another name`,
      [{ field: 'name', message: 'already used by a sibling category' }],
    );
  }
}

/** Subcategories carry their parent's type (spec: on create "type is ignored"); keep the whole subtree in step. */
function retypeSubtree(account: AccountRecord, category: CategoryRecord, type: CategoryType): void {
  category.type = type;
  for (const id of childIds(account, category.id)) {
    const child = account.categories.get(id);
    if (child) retypeSubtree(account, child, type);
  }
}

export const categoryHandlers = handlers({
  listCategories: {
    handle: (ctx) => ok([...ctx.account.categories.values()].map(categoryView)),
  },

  createCategory: {
    handle(ctx) {
      const { account, body, state } = ctx;
      const parentId = body.parentId ?? null;
      // With a parent, the request's type is ignored: the child takes the parent's type (spec).
      const type = parentId === null ? body.type : categoryById(account, parentId, 'parentId').type;
      assertNameFree(account, parentId, body.name);
      const category: CategoryRecord = {
        id: state.nextId(),
        name: body.name,
        type,
        parentId,
        enabledForPlannedTransactions: true,
      };
      putCategory(account, category);
      return ok(categoryView(category));
    },
  },

  getCategory: {
    handle: (ctx) => ok(categoryView(categoryAt(ctx.account, ctx.params))),
  },

  updateCategory: {
    handle(ctx) {
      const { account, body } = ctx;
      const category = categoryAt(account, ctx.params);
      const renames = body.name !== undefined && body.name !== category.name;
      const retypes = body.type !== undefined && body.type !== category.type;
      if (renames || retypes) assertFixedOk(category, renames ? 'renamed' : 'retyped');
      if (retypes && category.parentId !== null) {
        throw invalidRequest(
          `Category ${category.id} is a subcategory and takes its parent's type ${category.type}; change the type of its top-level category instead`,
          [{ field: 'type', message: `must equal the parent's type ${category.type}` }],
        );
      }
      if (renames && body.name !== undefined) {
        assertNameFree(account, category.parentId, body.name, category.id);
        renameCategory(account, category, body.name);
      }
      if (retypes && body.type !== undefined) retypeSubtree(account, category, body.type);
      return ok(categoryView(category));
    },
  },

  deleteCategory: {
    handle(ctx) {
      const { account } = ctx;
      const category = categoryAt(account, ctx.params);
      assertFixedOk(category, 'deleted');
      if (childIds(account, category.id).length > 0) {
        throw new SandboxFault(
          409,
          'CATEGORY_IN_USE',
          `Category ${category.id} has subcategories; delete them first`,
        );
      }
      if (categoryHasPlans(account, category.id)) {
        throw new SandboxFault(
          409,
          'CATEGORY_IN_USE',
          `Category ${category.id} holds plan values; remove them first (DELETE /plans?categoryId=${category.id}&scenarioId=...)`,
        );
      }
      removeCategory(account, category);
      return ok({ success: true, message: 'Category deleted', id: category.id });
    },
  },
});

/** 404 CATEGORY_NOT_FOUND for a categoryId of a request body or query. */
export function categoryById(account: AccountRecord, id: number, field: string): CategoryRecord {
  const category = account.categories.get(id);
  if (category) return category;
  throw new SandboxFault(
    404,
    'CATEGORY_NOT_FOUND',
    `Category ${id} does not exist in this account; take ${field} from GET /categories`,
    [{ field, message: 'no such category in the account' }],
  );
}
