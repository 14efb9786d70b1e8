import type { Category } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { rereadListed, updateConfirmed } from '../../sync/writes/confirmed-writes.js';
import { createListed } from '../../sync/writes/create-conflict.js';
import type { UpsertOptions } from '../../sync/writes/field-diff.js';
import { syncListedUpsert } from '../../sync/writes/listed-upsert.js';
import { type CategoryPayload, type CategoryRecord, parentPath, pathKey, segmentsOf } from './payload.js';
import { CategoryTree } from './tree.js';

/** The code of a sibling with the same name (docs/contract.md: assumed, the spec shows none for categories). */
const PATH_TAKEN = 'CATEGORY_ALREADY_EXISTS';

const REFUSALS: Record<string, Refusal> = {
  CATEGORY_NOT_FOUND: {
    outcome: 'failed',
    advice:
      'the category or its parent was deleted in the service while this chunk synced; the next run creates it again',
  },
};

const keyOf = (record: CategoryRecord) => pathKey(record.payload.path);
const depthOf = (record: CategoryRecord) => segmentsOf(record.payload.path).length;

/**
 * Why a record cannot be written under its parent, or its parent's id (null: top level). A
 * subcategory takes its parent's type (the service ignores a child's own), so a record whose type
 * is not its parent's is rejected rather than silently retyped.
 */
function parentOf(record: CategoryRecord, tree: CategoryTree): number | null | OutcomeFields {
  const path = parentPath(record.payload.path);
  if (path === undefined) return null;
  const parent = tree.find(path);
  if (!parent)
    return {
      outcome: 'rejected',
      code: 'PARENT_NOT_FOUND',
      message: `its parent "${path}" is neither in the service nor earlier in this chunk: add a record for "${path}" to the export (parents are created before their children)`,
    };
  return parent.type === record.payload.type ? parent.id : typeMismatch(record, path, parent);
}

const typeMismatch = (record: CategoryRecord, path: string, parent: Category): OutcomeFields => ({
  outcome: 'rejected',
  code: 'CATEGORY_TYPE_MISMATCH',
  serviceId: parent.id,
  message: `its parent "${path}" is ${parent.type} and a subcategory takes its parent's type, but the record says ${record.payload.type}: give it ${parent.type}, or put it under a parent of type ${record.payload.type}`,
});

/** The update body that brings `held` in line with the record; undefined when nothing differs. */
export function categoryPatch(
  wanted: CategoryPayload,
  held: Category,
): { type: CategoryPayload['type'] } | undefined {
  return wanted.type === held.type ? undefined : { type: wanted.type };
}

/**
 * Upserts one chunk of the account's category tree by path (the API gives categories no external
 * id; syncListedUpsert: listed once, created one by one, never twice). Parents are written before
 * their children (by depth), so a child finds a parent the chunk created:
 * - missing: created under its parent (rejected PARENT_NOT_FOUND when the parent is neither in the
 *   service nor earlier in the chunk, CATEGORY_TYPE_MISMATCH when the parent has another type);
 * - existing: a top-level category whose type differs is retyped (the service retypes its
 *   subcategories with it); a subcategory's type is its parent's, so a differing one is rejected.
 * Two records of one path in a chunk: the second is rejected (DUPLICATE_IN_SOURCE). Nothing is
 * renamed or deleted: a category the export no longer names stays.
 */
export function syncCategoriesChunk(
  records: readonly CategoryRecord[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return syncListedUpsert(records, options, ctx, {
    kind: 'categories',
    what: 'category',
    where: 'at that path in the account',
    keyOf,
    order: (held) => [...held].sort((a, b) => depthOf(a) - depthOf(b)),
    read: () => CategoryTree.read(ctx),
    find: (tree, record) => tree.find(keyOf(record)),
    id: (category) => category.id,
    existing: (record, category, tree) => syncExisting(record, category, ctx, tree),
    create: (record, tree, existing) => createCategory(record, ctx, tree, existing),
  });
}

function createCategory(
  record: CategoryRecord,
  ctx: ChunkContext,
  tree: CategoryTree,
  existing: (category: Category) => Promise<OutcomeFields>,
): Promise<OutcomeFields> {
  const parentId = parentOf(record, tree);
  if (parentId !== null && typeof parentId !== 'number') return Promise.resolve(parentId);
  const names = segmentsOf(record.payload.path);
  const body = { name: names[names.length - 1] ?? '', type: record.payload.type, parentId };
  return createListed<Category>(ctx, {
    operation: 'createCategory',
    refusals: REFUSALS,
    // The tree learns the new category at once: the chunk's later records may be its children.
    send: async () => {
      const created = await ctx.client.createCategory(ctx.accountId, body, { signal: ctx.signal });
      tree.add(keyOf(record), created);
      return created;
    },
    what: 'category',
    listing: "the account's category list",
    named: `path "${keyOf(record)}"`,
    idTaken: PATH_TAKEN,
    refind: () => tree.refind(keyOf(record)),
    id: (category) => category.id,
    existing,
  });
}

/** The outcome of a record whose path a category of the account already has (mode not insert). */
async function syncExisting(
  record: CategoryRecord,
  category: Category,
  ctx: ChunkContext,
  tree: CategoryTree,
): Promise<OutcomeFields> {
  const parent = parentPath(record.payload.path);
  if (parent !== undefined && category.type !== record.payload.type) {
    const held = tree.find(parent);
    if (held) return typeMismatch(record, parent, held);
  }
  const outcome = await updateConfirmed(ctx, category, {
    operation: 'updateCategory',
    id: (current) => current.id,
    refusals: REFUSALS,
    patchOf: (current) => categoryPatch(record.payload, current),
    send: (current, patch) =>
      ctx.client.updateCategory(ctx.accountId, current.id, patch, { signal: ctx.signal }),
    // The type is set, not added, so an ambiguous update is re-read and compared instead of resent blindly.
    reread: rereadListed('category', 'CATEGORY_NOT_FOUND', () => tree.refind(keyOf(record))),
  });
  // A retyped category's subcategories were retyped with it: the chunk's later records compare with the new types.
  if (outcome.outcome === 'updated') await tree.refind(keyOf(record));
  return outcome;
}
