import type { ChunkContext } from '../../sync/ports.js';
import type { HeldScope } from '../../sync/reconcile/held.js';
import { type CategoryRecord, pathKey } from './payload.js';
import { pathsOf } from './tree.js';

/**
 * A categories feed's scope: the account's category tree, matched by path as the sync matches it
 * (the API gives categories no externalId); what is compared is the path's type. A category whose
 * name holds the path separator, which no feed path can name, is left out (as the sync leaves it).
 */
export function categoryScope(ctx: ChunkContext): Promise<HeldScope> {
  return Promise.resolve({
    describe: `categories of account ${ctx.accountId} (by path)`,
    keyOf: (record) => pathKey((record as CategoryRecord).payload.path),
    keyFields: ['path'],
    async *pages() {
      const byPath = pathsOf(await ctx.client.listCategories(ctx.accountId, { signal: ctx.signal }));
      yield [...byPath].map(([path, category]) => ({
        id: category.id,
        key: path,
        values: { type: category.type },
      }));
    },
  });
}
