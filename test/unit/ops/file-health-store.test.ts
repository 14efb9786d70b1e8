import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileFeedHealthStore } from '../../../src/ops/alerts/file-health-store.js';
import { captureLogs } from '../../support/log-capture.js';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'erp-bridge-health-')), 'reports', '.feed-health.json');

describe('FileFeedHealthStore', () => {
  it('keeps each feed’s state and recent counts across processes (a new store on the same file)', async () => {
    const path = fresh();
    const first = new FileFeedHealthStore(path, captureLogs().logger);
    expect(
      await first.update('a', {
        runId: 'r1',
        failing: ['chunk-failed'],
        volume: { dropped: false, records: 10 },
      }),
    ).toEqual({ failing: [], dropped: false });
    await first.update('b', { runId: 'r2', failing: [], volume: { dropped: true, records: 3 } });

    const second = new FileFeedHealthStore(path, captureLogs().logger);
    expect(await second.recentRecords('a')).toEqual([10]);
    expect(
      await second.update('a', {
        runId: 'r3',
        failing: ['run-stopped'],
        volume: { dropped: false, records: 12 },
      }),
    ).toEqual({ failing: ['chunk-failed'], dropped: false });
    // A retry run (no volume) leaves the drop state and the counts alone.
    expect(await second.update('b', { runId: 'r4', failing: [] })).toEqual({ failing: [], dropped: true });
    expect(await second.recentRecords('b')).toEqual([3]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      a: {
        failing: 'run-stopped',
        recent: [
          { runId: 'r3', records: 12 },
          { runId: 'r1', records: 10 },
        ],
      },
      b: { dropped: true },
    });
  });

  it('serialises concurrent updates of one process: none is lost', async () => {
    const path = fresh();
    const store = new FileFeedHealthStore(path, captureLogs().logger);
    const feeds = Array.from({ length: 20 }, (_, i) => `feed-${i}`);
    await Promise.all(
      feeds.map((feed, i) =>
        store.update(feed, { runId: `r${i}`, failing: [], volume: { dropped: false, records: i } }),
      ),
    );
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual([...feeds].sort());
  });

  it('starts afresh, with a warning, from a file it cannot read', async () => {
    const path = fresh();
    await new FileFeedHealthStore(path, captureLogs().logger).update('a', { runId: 'r', failing: [] });
    writeFileSync(path, '{"a": {"failing": 3}}');
    const logs = captureLogs();
    const store = new FileFeedHealthStore(path, logs.logger);
    expect(await store.update('a', { runId: 'r2', failing: ['chunk-failed'] })).toEqual({
      failing: [],
      dropped: false,
    });
    expect(logs.entries()).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'feed health file unreadable; starting with every feed healthy',
      }),
    ]);
  });
});
