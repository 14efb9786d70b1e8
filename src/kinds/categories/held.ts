import { heldInDirectory } from '../../sync/held-verdict.js';
import { type CategoryRecord, pathKey } from './payload.js';
import { categoryPatch } from './strategy.js';
import { CategoryTree } from './tree.js';

/**
 * Categories: one the account already has at the record's path with the record's type is skipped
 * (mode insert: any existing one); creates, retypes and what the real run would refuse count as
 * would-send.
 */
export const heldCategories = heldInDirectory(
  (ctx) => CategoryTree.read(ctx),
  (record: CategoryRecord) => pathKey(record.payload.path),
  (record, category) => categoryPatch(record.payload, category) === undefined,
);
