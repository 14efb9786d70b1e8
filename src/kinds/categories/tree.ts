import type { Category } from '../../contract/index.js';
import type { ChunkContext } from '../../sync/ports.js';
import { PATH_SEPARATOR } from './payload.js';

/**
 * The account's categories by path, as one chunk sees them. The API lists categories whole (no
 * lookup, no page) and gives them no externalId, so the path from the top level is what names one
 * (sibling names are unique: the service refuses a second one). The list is read once per chunk,
 * grows with what the chunk creates, and is read again after an ambiguous write or a conflict.
 */
export class CategoryTree {
  #byPath = new Map<string, Category>();

  private constructor(private readonly ctx: ChunkContext) {}

  static async read(ctx: ChunkContext): Promise<CategoryTree> {
    const tree = new CategoryTree(ctx);
    await tree.#list();
    return tree;
  }

  find(path: string): Category | undefined {
    return this.#byPath.get(path);
  }

  /** A category this chunk created, so its children find it without another listing. */
  add(path: string, category: Category): void {
    this.#byPath.set(path, category);
  }

  /** Lists the categories again and finds the path in the fresh list. */
  async refind(path: string): Promise<Category | undefined> {
    await this.#list();
    return this.find(path);
  }

  async #list(): Promise<void> {
    const categories = await this.ctx.client.listCategories(this.ctx.accountId, { signal: this.ctx.signal });
    this.#byPath = pathsOf(categories);
  }
}

/**
 * Every category under its path. Left out: one whose parent chain is broken or cyclic, and one
 * with the separator in a name on its path, which no feed path can name (and which would pass for
 * another path: a top-level "A/B" for "B" under "A").
 */
export function pathsOf(categories: readonly Category[]): Map<string, Category> {
  const byId = new Map(categories.map((category) => [category.id, category]));
  const paths = new Map<string, Category>();
  for (const category of categories) {
    const names = [category.name];
    let parentId = category.parentId ?? null;
    for (let depth = 0; parentId !== null; depth++) {
      const parent = byId.get(parentId);
      if (!parent || depth > categories.length) break;
      names.unshift(parent.name);
      parentId = parent.parentId ?? null;
    }
    if (parentId === null && !names.some((name) => name.includes(PATH_SEPARATOR)))
      paths.set(names.join(PATH_SEPARATOR), category);
  }
  return paths;
}
