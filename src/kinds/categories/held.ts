import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { type HeldVerdict, heldAs, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { type CategoryRecord, pathKey } from './payload.js';
import { categoryPatch } from './strategy.js';
import { CategoryTree } from './tree.js';

/**
 * Categories: one the account already has at the record's path with the record's type is skipped
 * (mode insert: any existing one); creates, retypes and what the real run would refuse count as
 * would-send.
 */
export async function heldCategories(
  records: readonly CategoryRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: CategoryRecord) => HeldVerdict> {
  if (records.length === 0) return nothingHeld;
  const tree = await CategoryTree.read(ctx);
  return (record) =>
    heldAs(
      tree.find(pathKey(record.payload.path)),
      settings.mode,
      (category) => categoryPatch(record.payload, category) === undefined,
    );
}
