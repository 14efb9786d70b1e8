import type { Page } from '../contract/index.js';

/**
 * The spec's iteration rule: request pages with increasing `page` until `page` equals
 * `totalPages - 1` or `data` is empty. Also stops on `totalPages` 0 (nothing to list) and never
 * walks past the last page should `totalPages` shrink while iterating. Every fetched page is
 * yielded, the empty one included, so a caller still sees `totalElements`.
 */
export async function* iteratePages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  firstPage = 0,
): AsyncGenerator<Page<T>, void, undefined> {
  for (let page = firstPage; ; page++) {
    const result = await fetchPage(page);
    yield result;
    if (result.data.length === 0 || result.totalPages <= 0 || page >= result.totalPages - 1) return;
  }
}
