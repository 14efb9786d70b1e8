import type { LineScan } from './capped-lines.js';
import type { RecordPage, RecordQuery } from './console-source.js';

/** The searchable text of a record: what an operator pastes from a ticket (an id, a code, a word). */
export function matches(search: string, ...texts: (string | number | null | undefined)[]): boolean {
  if (search === '') return true;
  const needle = search.toLowerCase();
  return texts.some((t) => t !== undefined && t !== null && String(t).toLowerCase().includes(needle));
}

/** One page of a scan, counting every match but keeping only the page's: memory is one page. */
export async function pageOf<T>(scan: LineScan<T>, query: RecordQuery): Promise<RecordPage<T>> {
  const first = (query.page - 1) * query.pageSize;
  const items: T[] = [];
  let matched = 0;
  for await (const record of scan.records) {
    if (matched >= first && items.length < query.pageSize) items.push(record);
    matched++;
  }
  return { items, matched, truncated: scan.truncated, unreadable: scan.unreadable };
}
