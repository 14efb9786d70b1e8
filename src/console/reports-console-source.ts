import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import { type LineScan, scanLines } from '../report-files/capped-lines.js';
import { checkedDetail } from './checked-detail.js';
import type {
  ConsoleSource,
  DamagedFolder,
  Detail,
  FeedRow,
  Overview,
  ReconcileDetail,
  ReconcileRow,
  RecordPage,
  RecordQuery,
  RunDetail,
} from './console-source.js';
import { differenceMatches, pageOf, problemMatches } from './record-search.js';
import { ConsoleOutcome, ConsoleReconcile, ConsoleReconcileLine, ConsoleRun } from './summary-schemas.js';

/** A report folder's name as the URL carries it: one path segment, never `..` or a hidden folder. */
export const FOLDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

type Folder =
  | { id: string; run: ConsoleRun }
  | { id: string; reconcile: ConsoleReconcile }
  | { id: string; damaged: DamagedFolder }
  | undefined;

const LINE_FILES = [
  'outcomes.ndjson',
  'outcomes.csv',
  'reconcile.ndjson',
  'reconcile.csv',
  '.outcomes.spill',
];

/**
 * Report folders the console reads at most, the newest by the time in their names: each finished
 * one's checked summary is kept (~1 KB), and the first page reads them all (21,000 took ~2 s, npm
 * run bench:console), so a --report-dir that grows for years must not grow the console with it.
 */
export const MAX_FOLDERS = 100_000;

export interface ReportsConsoleOptions {
  /**
   * Each feed's open alerts in words, when the caller can read them (the CLI reads the
   * `.feed-health.json` that `erp-bridge sync` keeps in the same folder).
   */
  alerts?: () => Promise<Map<string, string[]>>;
  /** Default MAX_FOLDERS. */
  maxFolders?: number;
}

/** The UTC stamp in a run or reconcile id (`<feed>-<YYYYMMDDTHHMMSSZ>-<hex>`, sync/run-id.ts): sorts as time. */
const stampOf = (id: string): string => /-(\d{8}T\d{6}Z)-[0-9a-f]+$/.exec(id)?.[1] ?? '';

/**
 * The console's read port over the report folders `erp-bridge sync` and `reconcile` write
 * (--report-dir): each folder's summary.json, checked with zod, and its NDJSON lines, streamed.
 * Listed on each request (the folders change while a sync runs beside the console); a finished
 * folder's summary is read once.
 */
export class ReportsConsoleSource implements ConsoleSource {
  /**
   * `alerts`: each feed's open alerts in words, when the caller can read them (the CLI reads the
   * `.feed-health.json` that `erp-bridge sync` keeps in the same folder).
   */
  /**
   * The checked summaries of finished folders, by folder name. A sync writes summary.json once, at
   * its end, atomically (file-sink.ts), so a folder that had a good one keeps it: read once, not
   * on every page (21,000 folders took 1.8 s a page; the listing alone stays per request, and drops
   * folders that are gone). Damaged and unfinished folders are read again each time.
   */
  private readonly finished = new Map<string, Folder>();

  private readonly alerts: (() => Promise<Map<string, string[]>>) | undefined;
  private readonly maxFolders: number;

  constructor(
    private readonly dir: string,
    options: ReportsConsoleOptions = {},
  ) {
    this.alerts = options.alerts;
    this.maxFolders = options.maxFolders ?? MAX_FOLDERS;
  }

  async overview(): Promise<Overview> {
    const [{ folders, unread }, open] = await Promise.all([this.folders(), this.openAlerts()]);
    const rows = new Map<string, FeedRow>();
    const reconciles = new Map<string, ReconcileRow>();
    const damaged: DamagedFolder[] = [];
    for (const folder of folders) {
      if (!folder) continue;
      if ('damaged' in folder) {
        damaged.push(folder.damaged);
      } else if ('run' in folder) {
        const { run } = folder;
        const key = `${run.accountId}\u0000${run.feed}`;
        const row = rows.get(key);
        if (!row)
          rows.set(key, { accountId: run.accountId, feed: run.feed, kind: run.kind, last: run, runs: 1 });
        else {
          row.runs = (row.runs ?? 0) + 1;
          if (!row.last || run.startedAt > row.last.startedAt) {
            row.last = run;
            row.kind = run.kind;
          }
        }
      } else {
        const { reconcile } = folder;
        const key = `${reconcile.accountId}\u0000${reconcile.feed}`;
        const row = reconciles.get(key);
        if (!row || reconcile.startedAt > row.last.startedAt)
          reconciles.set(key, { accountId: reconcile.accountId, feed: reconcile.feed, last: reconcile });
      }
    }
    if ('problem' in open) damaged.push(open.problem);
    else if (open.alerts) for (const row of rows.values()) row.alerts = open.alerts.get(row.feed) ?? [];
    return {
      rows: [...rows.values()],
      reconciles: [...reconciles.values()],
      damaged,
      knows: { runs: true, freshness: false, alerts: this.alerts !== undefined },
      ...(unread > 0
        ? {
            notice: `Only the newest ${this.maxFolders.toLocaleString('en')} of ${(this.maxFolders + unread).toLocaleString('en')} report folders are read (the console's cap): older runs are not counted here, their pages still open by id.`,
          }
        : {}),
    };
  }

  /** The alerts, or why they cannot be read (a row then says "unknown", never "none"). */
  private async openAlerts(): Promise<{ alerts?: Map<string, string[]> } | { problem: DamagedFolder }> {
    if (!this.alerts) return {};
    try {
      return { alerts: await this.alerts() };
    } catch (error) {
      return { problem: { id: '.feed-health.json', problem: (error as Error).message } };
    }
  }

  async run(runId: string): Promise<RunDetail | undefined> {
    return this.detail(runId, (folder) => ('run' in folder ? folder.run : undefined));
  }

  async problems(runId: string, query: RecordQuery): Promise<RecordPage<ConsoleOutcome>> {
    if (!FOLDER_ID.test(runId)) return { items: [], matched: 0, truncated: false, unreadable: 0 };
    return pageOf(this.scan(runId, 'outcomes', ConsoleOutcome, problemMatches(query.q)), query);
  }

  allProblems(runId: string, search: string): AsyncIterable<ConsoleOutcome> {
    if (!FOLDER_ID.test(runId)) return (async function* () {})();
    return this.scan(runId, 'outcomes', ConsoleOutcome, problemMatches(search)).records;
  }

  async history(feed: string, limit: number): Promise<ConsoleRun[]> {
    const runs = (await this.folders()).folders
      .flatMap((f) => (f && 'run' in f && f.run.feed === feed ? [f.run] : []))
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    return runs.slice(-limit);
  }

  async reconcile(reconcileId: string): Promise<ReconcileDetail | undefined> {
    return this.detail(reconcileId, (folder) => ('reconcile' in folder ? folder.reconcile : undefined));
  }

  async differences(reconcileId: string, query: RecordQuery): Promise<RecordPage<ConsoleReconcileLine>> {
    if (!FOLDER_ID.test(reconcileId)) return { items: [], matched: 0, truncated: false, unreadable: 0 };
    return pageOf(
      this.scan(reconcileId, 'reconcile', ConsoleReconcileLine, differenceMatches(query.q)),
      query,
    );
  }

  /**
   * The folder's summary that `summaryOf` picks (a run's or a reconcile's), damaged whatever the
   * kind asked for (a folder without a readable summary cannot say which it is), undefined when
   * there is no such folder or it holds the other kind.
   */
  private async detail<S>(
    id: string,
    summaryOf: (folder: Exclude<Folder, undefined>) => S | undefined,
  ): Promise<Detail<S> | undefined> {
    const folder = await this.folder(id);
    if (!folder) return undefined;
    if ('damaged' in folder) return { damaged: folder.damaged };
    const summary = summaryOf(folder);
    return summary === undefined ? undefined : { summary };
  }

  /** A folder's NDJSON lines, checked; the file is written at its run's end: until then, no lines. */
  private scan<T>(id: string, name: string, schema: ZodType<T>, keep: (record: T) => boolean): LineScan<T> {
    return scanLines(join(this.dir, id, `${name}.ndjson`), schema, keep, { missingIsEmpty: true });
  }

  /** The folders read (at most maxFolders, the newest) and how many the listing left unread. */
  private async folders(): Promise<{ folders: Folder[]; unread: number }> {
    const entries = await readdir(this.dir, { withFileTypes: true });
    const all = entries.filter((e) => e.isDirectory() && FOLDER_ID.test(e.name)).map((e) => e.name);
    // Past the cap, the newest (names without a stamp count as oldest); the page says so.
    const ids =
      all.length <= this.maxFolders
        ? all
        : all
            .map((name) => ({ name, stamp: stampOf(name) }))
            .sort((a, b) => (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0))
            .slice(0, this.maxFolders)
            .map((folder) => folder.name);
    const present = new Set(ids);
    for (const id of this.finished.keys()) if (!present.has(id)) this.finished.delete(id);
    // A few at a time: a reports folder of thousands of runs must not open thousands of files at once.
    const folders: Folder[] = [];
    for (let i = 0; i < ids.length; i += 32)
      folders.push(...(await Promise.all(ids.slice(i, i + 32).map((id) => this.finishedOrRead(id)))));
    return { folders, unread: all.length - ids.length };
  }

  private async finishedOrRead(id: string): Promise<Folder> {
    const known = this.finished.get(id);
    if (known) return known;
    const folder = await this.folder(id);
    if (folder && !('damaged' in folder)) this.finished.set(id, folder);
    return folder;
  }

  /** A folder's summary, checked; undefined when it is no report folder (or the id is not one). */
  private async folder(id: string): Promise<Folder> {
    if (!FOLDER_ID.test(id)) return undefined;
    const dir = join(this.dir, id);
    let text: string;
    try {
      text = await readFile(join(dir, 'summary.json'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return { id, damaged: { id, problem: `summary.json cannot be read (${code})` } };
      const names = await readdir(dir).catch(() => [] as string[]);
      if (!names.some((n) => LINE_FILES.includes(n))) return undefined;
      return {
        id,
        damaged: { id, problem: 'no summary.json: the run is still going, or was killed before its end' },
      };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { id, damaged: { id, problem: 'summary.json is not JSON (truncated or edited?)' } };
    }
    const isReconcile = typeof value === 'object' && value !== null && 'reconcileId' in value;
    if (isReconcile) {
      const reconcile = checkedDetail(ConsoleReconcile, value, id, 'summary.json is not a reconcile summary');
      return 'summary' in reconcile ? { id, reconcile: reconcile.summary } : { id, ...reconcile };
    }
    const run = checkedDetail(ConsoleRun, value, id, 'summary.json is not a run summary');
    return 'summary' in run ? { id, run: run.summary } : { id, ...run };
  }
}
