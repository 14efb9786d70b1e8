import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRun } from '../../../src/in-process/memory-run.js';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import type { RunAlerts } from '../../../src/sync/alerts.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import { type FinishInput, finishRun } from '../../../src/sync/run/finish-run.js';
import { FakeClock } from '../../support/fake-clock.js';
import { captureLogs } from '../../support/log-capture.js';
import { tempDirs, unaskedClient, usersFeed } from '../../support/run-fixture.js';

const feed = usersFeed('finish');
const freshDir = tempDirs('finish-run-');

/** A run of this process with `outcomes` stored, its report under a fresh folder, and its finish's deps. */
async function storedRun(outcomes: RecordOutcome[]) {
  const dir = await freshDir();
  const sink = await FileReportSink.create(dir, 'run-1');
  const run = new MemoryRun('run-1', sink, async () => {});
  await run.report.record(outcomes);
  const clock = new FakeClock();
  const logs = captureLogs();
  // Never asked: the run has no statements.
  const client = unaskedClient(clock);
  const judged: boolean[] = [];
  const alerts: RunAlerts = {
    runFinished: async (summary) => {
      judged.push(existsSync(join(dir, summary.runId, 'summary.json')));
    },
    close: async () => {},
  };
  const deps = {
    logger: logs.logger,
    now: () => clock.now(),
    context: { client, clock, logger: logs.logger, accountId: 1001 },
    alerts,
  };
  return { run, deps, logs, judged };
}

const input = (records: number): FinishInput => ({
  runId: 'run-1',
  feed,
  dryRun: false,
  startedAt: Date.parse('2030-01-01T00:00:00Z'),
  files: [{ path: '/x/users.csv', reported: { path: 'users.csv', sha256: 'abc', records } }],
});

const created = (line: number): RecordOutcome => ({
  file: 'users.csv',
  line,
  externalId: `u${line}`,
  outcome: 'created',
  serviceId: line,
});

describe("the run's end (sync/run/finish-run.ts)", () => {
  it('says so, as an alert line, when a record read has no outcome', async () => {
    const { run, deps, logs } = await storedRun([created(2), created(3)]);
    const summary = await finishRun(input(3), run.kept, deps);
    expect(summary.counts.created).toBe(2);
    expect(logs.entries().filter((e) => e.alert === true)).toEqual([
      expect.objectContaining({
        msg: 'records without an outcome: the report does not account for every source record',
        records: 3,
        accounted: 2,
      }),
    ]);
  });

  it('stores the summary, then judges the run, once: a finish run again returns the stored summary', async () => {
    const { run, deps, logs, judged } = await storedRun([created(2), created(3)]);
    const summary = await finishRun(input(2), run.kept, deps);
    expect(logs.entries().filter((e) => e.alert === true)).toEqual([]);
    expect(judged).toEqual([true]);
    expect(await finishRun(input(2), run.kept, deps)).toEqual(summary);
    expect(judged).toEqual([true]);
    expect(logs.entries().filter((e) => e.msg === 'run finished')).toHaveLength(1);
  });
});

describe("a database feed's end: the cursor position advanced once the run went through (issue 29)", () => {
  const to = { column: '2026-11-01 10:00:03', tieBreaker: '3' };
  const read = (over: Partial<FinishInput> = {}): FinishInput => ({
    ...input(2),
    files: [
      { path: 'erp.users', reported: { path: 'erp.users', sha256: 'abc', records: 2 }, cursor: { to } },
    ],
    ...over,
  });
  /** A cursor store in memory: what the finish saved. */
  function positions() {
    const saved: unknown[] = [];
    return {
      saved,
      cursor: { load: async () => undefined, save: async (_feed: string, p: unknown) => void saved.push(p) },
    };
  }

  it('saves where the read ended, before the summary is stored, and again on a replayed finish', async () => {
    const { run, deps } = await storedRun([created(2), created(3)]);
    const { saved, cursor } = positions();
    // Whether the summary was there when the position was saved: a run whose summary is there
    // (what `finished` and the next enqueue see) must have its position saved already.
    const summaryThere: boolean[] = [];
    const watched = {
      ...cursor,
      save: async (feedName: string, p: unknown) => {
        summaryThere.push((await run.kept.storedSummary()) !== undefined);
        await cursor.save(feedName, p);
      },
    };
    await finishRun(read(), run.kept, { ...deps, cursor: watched });
    expect(saved).toEqual([to]);
    await finishRun(read(), run.kept, { ...deps, cursor: watched });
    expect(saved).toEqual([to, to]);
    expect(summaryThere).toEqual([false, true]);
  });

  it('keeps it for an interrupted run, even one whose every record was settled', async () => {
    const { run, deps } = await storedRun([created(2), created(3)]);
    const { saved, cursor } = positions();
    const summary = await finishRun(read({ interrupted: { signal: 'SIGINT', unread: [] } }), run.kept, {
      ...deps,
      cursor,
    });
    expect(summary.counts.created).toBe(2);
    expect(saved).toEqual([]);
  });

  it('keeps it for a stopped run (its rows rejected by a layout stop are not final)', async () => {
    const { run, deps } = await storedRun([{ ...created(2), outcome: 'rejected' }, created(3)]);
    await run.stop({ code: 'SOURCE_LAYOUT', message: 'a mapped column is missing', exitCode: 2 });
    const { saved, cursor } = positions();
    await finishRun(read(), run.kept, { ...deps, cursor });
    expect(saved).toEqual([]);
  });
});
