import { predictPerAccount, routeToAccount, syncPerAccount } from '../account-route.js';
import { type KindDefinition, NO_CHUNK_SETTINGS } from '../definition.js';
import { CATEGORY_FIELDS } from './fields.js';
import { heldCategories } from './held.js';
import { CategoryPayload } from './payload.js';
import { categoryScope } from './reconcile.js';
import { syncCategoriesChunk } from './strategy.js';

export const categories: KindDefinition<CategoryPayload> = {
  chunk: NO_CHUNK_SETTINGS,
  description:
    "the account's category tree, matched by path (`Revenue/Consulting`; the API gives categories no externalId), parents before children; only a top-level type is updated (`mode`)",
  fields: CATEGORY_FIELDS,
  create: CategoryPayload,
  // The path is what names a category (sibling names are unique); its type may be corrected.
  identityFields: ['path'],
  sendsExternalId: false,
  route: routeToAccount,
  sync: (records, settings, ctx) =>
    syncPerAccount(records, ctx, (group, at) => syncCategoriesChunk(group, settings, at)),
  reconcile: (_feed, ctx) => categoryScope(ctx),
  predict: (records, settings, ctx) =>
    predictPerAccount(records, ctx, (group, at) => heldCategories(group, settings, at)),
};
