import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OUTCOMES = ['created', 'updated', 'skipped', 'rejected', 'failed'] as const;
type Counts = Partial<Record<(typeof OUTCOMES)[number], number>>;

export interface RunFolder {
  runId: string;
  feed: string;
  accountId?: number;
  state?: string;
  startedAt: string;
  counts?: Counts;
  target?: string;
  /** NDJSON outcome lines written as given (objects are stringified). */
  outcomes?: readonly (object | string)[];
  files?: object[];
}

/** A run's summary.json as `sync` writes it (the keys the console reads and a few it must not show). */
export function runSummary(run: RunFolder): object {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, run.counts?.[o] ?? 0]));
  const all = OUTCOMES.reduce((sum, o) => sum + (run.counts?.[o] ?? 0), 0);
  return {
    runId: run.runId,
    feed: run.feed,
    kind: 'transactions',
    accountId: run.accountId ?? 1001,
    dryRun: false,
    ...(run.target ? { target: run.target } : {}),
    state: run.state ?? 'completed',
    startedAt: run.startedAt,
    finishedAt: run.startedAt,
    durationMs: 10,
    files: run.files ?? [{ path: '/data/exports/umsaetze-2026-02.csv', sha256: 'ab', records: all }],
    counts,
    controlTotals: {
      ...Object.fromEntries(OUTCOMES.map((o) => [o, { records: run.counts?.[o] ?? 0, amount: '0' }])),
      all: { records: all, amount: '12.50' },
    },
    firstErrors: [],
  };
}

/** A temporary --report-dir the test fills with folders; removed with `remove()`. */
export function reportsDir() {
  const dir = mkdtempSync(join(tmpdir(), 'console-reports-'));
  return {
    dir,
    run(run: RunFolder, summary: object | string = runSummary(run)): void {
      const folder = join(dir, run.runId);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, 'summary.json'),
        typeof summary === 'string' ? summary : JSON.stringify(summary),
      );
      const lines = (run.outcomes ?? []).map((o) => (typeof o === 'string' ? o : JSON.stringify(o)));
      writeFileSync(join(folder, 'outcomes.ndjson'), lines.map((l) => `${l}\n`).join(''));
    },
    /** A folder a killed run left: outcomes, no summary. */
    unfinished(id: string): void {
      mkdirSync(join(dir, id), { recursive: true });
      writeFileSync(join(dir, id, 'outcomes.ndjson'), '');
    },
    reconcile(id: string, summary: object, lines: readonly object[]): void {
      mkdirSync(join(dir, id), { recursive: true });
      writeFileSync(join(dir, id, 'summary.json'), JSON.stringify(summary));
      writeFileSync(join(dir, id, 'reconcile.ndjson'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A rejected record line as outcomes.ndjson holds it. */
export const rejected = (line: number, externalId: string, message = 'amount: not a number') => ({
  file: '/data/exports/umsaetze-2026-02.csv',
  line,
  externalId,
  outcome: 'rejected',
  code: 'VALIDATION',
  message,
  amount: '-1.00',
  runId: 'x',
});
