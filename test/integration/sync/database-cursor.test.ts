import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../../src/in-process/cursor-file-store.js';
import { LocationError } from '../../../src/sources/locations/location-error.js';
import {
  bookings,
  type TableDouble as Double,
  databaseFeedFile,
  TableDouble,
} from '../../support/database-double.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 29, the run side: a database feed read incrementally and exactly once, in process. The
 * database's READING is a test double, which records the position each read starts after (the real
 * reader against both servers: database-sync.test.ts, database-faults-run.test.ts); the sandbox,
 * the run core, the report files and the cursor's file store are real.
 */
let h: SyncHarness;
beforeAll(async () => {
  h = await syncHarness();
});
afterAll(() => h.close());

const BULK = 'createTransactionsBulk';
const LABEL = 'erp.bank_bookings';

/** A transactions feed of the table and where its cursor positions are kept. */
function databaseFeed(name: string) {
  return {
    feedFile: databaseFeedFile(name, LABEL),
    cursor: new FileCursorStore(mkdtempSync(join(tmpdir(), 'erp-bridge-db-state-'))),
  };
}

function runWith(feed: ReturnType<typeof databaseFeed>, table: Double, more: { reimport?: boolean } = {}) {
  return (dryRun = false, interrupt?: AbortSignal) =>
    h.run(feed.feedFile, dryRun, undefined, {
      cursor: feed.cursor,
      openDatabase: () => table,
      ...(interrupt ? { interrupt } : {}),
      ...more,
    });
}

describe('a database feed, read after its stored cursor position', () => {
  it('the first run reads every row and stores the position it ended at; the next reads only rows after it', async () => {
    const feed = databaseFeed('db-incremental');
    const table = new TableDouble(LABEL, bookings('inc', [1, 2, 3, 4, 5]), {
      column: 'updated_at',
      tieBreaker: 'id',
    });
    const first = await runWith(feed, table)();
    expect(first.summary.counts.created).toBe(5);
    expect(first.summary.state).toBe('completed');
    // The run's one export is the table, by its label; its fingerprint is the read's (hex sha256).
    expect(first.summary.files.map((f) => [f.path, f.records])).toEqual([[LABEL, 5]]);
    expect(first.summary.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const position = { column: '2026-11-01 10:00:05.123456', tieBreaker: '5' };
    expect(await feed.cursor.load('db-incremental')).toEqual(position);

    table.rows.push(...bookings('inc', [6, 7]));
    const second = await runWith(feed, table)();
    expect(table.reads).toEqual([undefined, position]);
    expect(second.summary.counts).toMatchObject({ created: 2, skipped: 0 });
    expect(second.outcomes.map((o) => o.key)).toEqual(['6', '7']);
    expect(await feed.cursor.load('db-incremental')).toEqual({
      column: '2026-11-01 10:00:07.123456',
      tieBreaker: '7',
    });
    // Two reads of different ranges: different fingerprints.
    expect(second.summary.files[0]?.sha256).not.toBe(first.summary.files[0]?.sha256);
  });

  it('a read without new rows is a completed run of 0 records (not "no export"), the position kept', async () => {
    const feed = databaseFeed('db-nothing-new');
    const table = new TableDouble(LABEL, bookings('none', [1, 2]), {
      column: 'updated_at',
      tieBreaker: 'id',
    });
    await runWith(feed, table)();
    const again = await runWith(feed, table)();
    expect(again.summary.state).toBe('completed');
    expect(again.summary.files.map((f) => [f.path, f.records])).toEqual([[LABEL, 0]]);
    expect(again.summary.noFile).toBeUndefined();
    expect(await feed.cursor.load('db-nothing-new')).toEqual({
      column: '2026-11-01 10:00:02.123456',
      tieBreaker: '2',
    });
  });

  it('outcomes name a row table:key: the report files carry its key, rejections too', async () => {
    const feed = databaseFeed('db-keys');
    const rows = bookings('keys', [11, 12, 13]).map((row) =>
      row.id === '12' ? { ...row, amount: 'zwölf' } : row,
    );
    const table = new TableDouble(LABEL, rows, { column: 'updated_at', tieBreaker: 'id' });
    const run = await runWith(feed, table)();
    expect(run.outcomes.map((o) => [o.file, o.key, o.outcome])).toEqual([
      [LABEL, '11', 'created'],
      [LABEL, '12', 'rejected'],
      [LABEL, '13', 'created'],
    ]);
    expect(run.summary.firstErrors[0]).toMatchObject({ file: LABEL, key: '12', outcome: 'rejected' });
    const csv = readFileSync(run.files.csv, 'utf8').split(/\r?\n/);
    expect(csv[0]?.endsWith(',runId,key')).toBe(true);
    expect(csv[2]?.endsWith(',12')).toBe(true);
    // A rejected row is final: the position passes it (a fix changes its cursor column: read again).
    expect(await feed.cursor.load('db-keys')).toEqual({
      column: '2026-11-01 10:00:13.123456',
      tieBreaker: '13',
    });
  });

  it('a run with failed records keeps the position: the next run reads the same rows again, once', async () => {
    const feed = databaseFeed('db-failed');
    const table = new TableDouble(LABEL, bookings('fail', [1, 2, 3]), {
      column: 'updated_at',
      tieBreaker: 'id',
    });
    h.setFaults({ script: [{ op: BULK, fault: '500', times: 4 }] });
    try {
      const failed = await runWith(feed, table)();
      expect(failed.summary.counts.failed).toBe(3);
    } finally {
      h.setFaults();
    }
    expect(await feed.cursor.load('db-failed')).toBeUndefined();
    const rerun = await runWith(feed, table)();
    expect(table.reads).toEqual([undefined, undefined]);
    expect(rerun.summary.counts.created + rerun.summary.counts.skipped).toBe(3);
    expect(h.transactions(1001).filter((t) => t.externalId?.startsWith('fail-'))).toHaveLength(3);
    expect(await feed.cursor.load('db-failed')).toEqual({
      column: '2026-11-01 10:00:03.123456',
      tieBreaker: '3',
    });
  });

  it('a dry run reads and predicts but keeps the position', async () => {
    const feed = databaseFeed('db-dry');
    const table = new TableDouble(LABEL, bookings('dry', [1, 2]), { column: 'updated_at', tieBreaker: 'id' });
    const dry = await runWith(feed, table)(true);
    expect(dry.summary.wouldSend).toBe(2);
    expect(await feed.cursor.load('db-dry')).toBeUndefined();
  });

  // (An interrupted run whose every record was settled keeps it too: test/unit/sync/finish-run.test.ts.)
  it('an interrupted run keeps the position, even when its read had ended', async () => {
    const feed = databaseFeed('db-interrupted');
    const table = new TableDouble(LABEL, bookings('int', [1, 2, 3]), {
      column: 'updated_at',
      tieBreaker: 'id',
    });
    const interrupt = new AbortController();
    // The signal comes once every row was handed out: the read is complete, the run is not.
    table.onEnd = () => interrupt.abort('SIGINT');
    const run = await runWith(feed, table)(false, interrupt.signal);
    expect(run.summary.interrupted).toBeDefined();
    // Read to its end (the range is known), but nothing sent after the signal: failed, read again.
    expect(run.summary.files.map((f) => f.records)).toEqual([3]);
    expect(run.summary.counts.failed).toBe(3);
    expect(await feed.cursor.load('db-interrupted')).toBeUndefined();
  });

  it('--reimport reads from the start whatever position is stored, and stores where it ended', async () => {
    const feed = databaseFeed('db-reimport');
    const table = new TableDouble(LABEL, bookings('re', [1, 2, 3]), {
      column: 'updated_at',
      tieBreaker: 'id',
    });
    await runWith(feed, table)();
    const again = await runWith(feed, table, { reimport: true })();
    expect(table.reads).toEqual([undefined, undefined]);
    expect(again.summary.counts.skipped).toBe(3);
    expect(await feed.cursor.load('db-reimport')).toEqual({
      column: '2026-11-01 10:00:03.123456',
      tieBreaker: '3',
    });
  });

  it('a database that refuses at once stops the run with its code and exit code; the position stays', async () => {
    const feed = databaseFeed('db-refused');
    const table = new TableDouble(LABEL, bookings('ref', [1]), { column: 'updated_at', tieBreaker: 'id' });
    await runWith(feed, table)();
    const refused = await h.run(feed.feedFile, false, undefined, {
      cursor: feed.cursor,
      openDatabase: () => {
        throw new RefusedLogin();
      },
    });
    expect(refused.summary.stopReason).toEqual({
      code: 'AUTH_FAILED',
      message: 'erp.bank_bookings: the database refused the login',
      exitCode: 3,
    });
    expect(refused.summary.files.map((f) => [f.path, f.records])).toEqual([[LABEL, 0]]);
    expect(await feed.cursor.load('db-refused')).toEqual({
      column: '2026-11-01 10:00:01.123456',
      tieBreaker: '1',
    });
  });
});

/** What the reading side throws for a refused password (a LocationError: exit 3, as the service). */
class RefusedLogin extends LocationError {
  readonly code = 'AUTH_FAILED';
  readonly exitCode = 3;
  constructor() {
    super('erp.bank_bookings: the database refused the login');
  }
}
