import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { overviewPage } from '../../../src/console/pages/overview-page.js';
import { ReportsConsoleSource } from '../../../src/console/reports-console-source.js';
import { reportsDir, runSummary } from '../../support/console-folders.js';

// The report folders change while the console is open: syncs add folders, someone removes old
// ones, a running sync's folder gets its summary at the end. A finished folder's summary.json is
// written once, atomically (file-sink.ts): the console reads it once, the listing every time.

const folders = reportsDir();
afterAll(() => folders.remove());

const feedsOf = async (source: ReportsConsoleSource) =>
  (await source.overview()).rows.map((row) => `${row.feed}:${row.last?.runId}`).sort();

describe('the report folders as the console lists them', () => {
  it('sees folders added, removed and finished since the last page', async () => {
    const at = (day: number) => `2026-11-0${day}T02:00:00.000Z`;
    folders.run({ runId: 'bank-1', feed: 'bank', startedAt: at(1), counts: { created: 1 } });
    const source = new ReportsConsoleSource(folders.dir);
    expect(await feedsOf(source)).toEqual(['bank:bank-1']);

    folders.run({ runId: 'bank-2', feed: 'bank', startedAt: at(2), counts: { created: 2 } });
    folders.unfinished('plans-1');
    expect(await feedsOf(source)).toEqual(['bank:bank-2']);
    expect((await source.overview()).damaged.map((d) => d.id)).toEqual(['plans-1']);

    // The running sync ends: its summary appears, and so does its row.
    writeFileSync(
      join(folders.dir, 'plans-1', 'summary.json'),
      JSON.stringify(runSummary({ runId: 'plans-1', feed: 'plans', startedAt: at(3) })),
    );
    rmSync(join(folders.dir, 'bank-2'), { recursive: true });
    expect(await feedsOf(source)).toEqual(['bank:bank-1', 'plans:plans-1']);
    expect((await source.overview()).damaged).toEqual([]);
  });

  it("reads a finished folder's summary once, not on every page", async () => {
    folders.run({
      runId: 'once-1',
      feed: 'once',
      startedAt: '2026-11-05T02:00:00.000Z',
      counts: { created: 3 },
    });
    const source = new ReportsConsoleSource(folders.dir);
    expect(await feedsOf(source)).toContain('once:once-1');
    // Not what a sync ever does (it writes summary.json once): shows that the page did not read it.
    writeFileSync(join(folders.dir, 'once-1', 'summary.json'), '{"not": "a summary"}');
    expect(await feedsOf(source)).toContain('once:once-1');
    // A new console process reads it again, and says what is wrong with it.
    const fresh = await new ReportsConsoleSource(folders.dir).overview();
    expect(fresh.damaged.map((d) => d.id)).toContain('once-1');
  });
});

describe('a report folder that grew for years', () => {
  it('reads only the newest folders up to the cap, by the time in their names, and says so', async () => {
    const many = reportsDir();
    try {
      const stamp = (day: number) => `202611${String(day).padStart(2, '0')}T020000Z`;
      for (const day of [3, 1, 4, 2, 5])
        many.run({
          runId: `bank-${stamp(day)}-abcdef`,
          feed: 'bank',
          accountId: day,
          startedAt: `2026-11-0${day}T02:00:00.000Z`,
        });
      many.run({ runId: 'hand-made', feed: 'bank', accountId: 9, startedAt: '2026-12-01T02:00:00.000Z' });
      const overview = await new ReportsConsoleSource(many.dir, { maxFolders: 3 }).overview();
      expect(overview.rows.map((row) => row.accountId).sort()).toEqual([3, 4, 5]);
      expect(overview.notice).toBe(
        "Only the newest 3 of 6 report folders are read (the console's cap): older runs are not counted here, their pages still open by id.",
      );
      const page = overviewPage(overview, { sort: 'state', dir: 'asc', q: '', state: '', page: 1 }).text;
      expect(page).toContain('<p><strong>Only the newest 3 of 6 report folders are read');
      expect((await new ReportsConsoleSource(many.dir).overview()).notice).toBeUndefined();
    } finally {
      many.remove();
    }
  });
});
