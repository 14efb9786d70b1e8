import type { ZodType } from 'zod';
import {
  checkProblem,
  type LineScan,
  MAX_LINES_SCANNED,
  scanOf,
  skip,
} from '../report-files/capped-lines.js';
import type { RecordPage, RecordQuery } from './console-source.js';
import type { ConsoleOutcome, ConsoleReconcileLine } from './summary-schemas.js';

/** The searchable text of a record: what an operator pastes from a ticket (an id, a code, a word). */
export function matches(search: string, ...texts: (string | number | null | undefined)[]): boolean {
  if (search === '') return true;
  const needle = search.toLowerCase();
  return texts.some((t) => t !== undefined && t !== null && String(t).toLowerCase().includes(needle));
}

const isProblem = (o: ConsoleOutcome) => o.outcome === 'rejected' || o.outcome === 'failed';

/** A run's rejected and failed records that match `search` (what a run page lists). */
export const problemMatches = (search: string) => (o: ConsoleOutcome) =>
  isProblem(o) && matches(search, o.externalId, o.code, o.message, o.file, o.line, o.key, o.amount);

/** A reconcile's lines other than `equal` that match `search`. */
export const differenceMatches = (search: string) => (l: ConsoleReconcileLine) =>
  l.verdict !== 'equal' &&
  matches(
    search,
    l.verdict,
    l.externalId,
    l.file,
    l.line,
    l.message,
    l.fields?.map((f) => f.field).join(' '),
  );

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

/**
 * Values from a store (the fleet's Redis) as a scan: each checked with `schema` (what fails is
 * counted, never shown), kept when `keep` says so, at most `maxValues` read (then `truncated`).
 */
export function scanValues<T>(
  values: AsyncIterable<unknown>,
  schema: ZodType<T>,
  keep: (value: T) => boolean,
  maxValues = MAX_LINES_SCANNED,
): LineScan<T> {
  return scanOf(async function* records(counts): AsyncGenerator<T> {
    let read = 0;
    for await (const value of values) {
      if (read++ >= maxValues) {
        counts.truncated = true;
        return;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) skip(counts, read, checkProblem(parsed.error));
      else if (keep(parsed.data)) yield parsed.data;
    }
  });
}
