import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { ArrivalMemory, listArrived, markerOf } from '../../../src/sources/locations/arrival.js';
import { openLocalLocation } from '../../../src/sources/locations/local.js';
import { afterCareOf, arrivalOf } from '../../../src/sources/locations/source-keys.js';
import { csvFeedWith } from '../../support/feed-text.js';
import { thrownBy } from '../../support/thrown.js';

const folder = () => mkdtempSync(join(tmpdir(), 'erp-bridge-arrival-'));
const file = (path: string, size: number, mtimeMs = 1000) => ({ path, size, mtimeMs });

describe('ArrivalMemory (stable arrival across listings)', () => {
  it('takes a file once a listing finds it as a listing stableAfterSeconds before did', () => {
    const memory = new ArrivalMemory();
    expect(memory.observe([file('/a', 10)], 0, 5000)).toMatchObject({
      ready: [],
      waiting: [{ path: '/a', reason: expect.stringMatching(/first time/) }],
    });
    // Unchanged but too soon: still waiting.
    expect(memory.observe([file('/a', 10)], 4000, 5000).ready).toEqual([]);
    expect(memory.observe([file('/a', 10)], 5000, 5000).ready).toEqual([file('/a', 10)]);
  });

  it('starts over when the size or the mtime changes', () => {
    const memory = new ArrivalMemory();
    memory.observe([file('/a', 10)], 0, 1000);
    const grown = memory.observe([file('/a', 20)], 2000, 1000);
    expect(grown.ready).toEqual([]);
    expect(grown.waiting[0]?.reason).toMatch(/still changing/);
    expect(memory.observe([file('/a', 20, 2000)], 3000, 1000).ready).toEqual([]);
    expect(memory.observe([file('/a', 20, 2000)], 4000, 1000).ready).toEqual([file('/a', 20, 2000)]);
  });

  it('forgets a file gone from the listing: seen again, it waits again', () => {
    const memory = new ArrivalMemory();
    memory.observe([file('/a', 1)], 0, 0);
    expect(memory.observe([file('/a', 1)], 1, 0).ready).toHaveLength(1);
    memory.observe([], 2, 0);
    expect(memory.observe([file('/a', 1)], 3, 0).ready).toEqual([]);
  });
});

describe('listArrived on the local disk', () => {
  const clock = (onSleep: () => void = () => {}) => {
    let now = 0;
    return {
      now: () => now,
      sleep: async (ms: number) => {
        onSleep();
        now += ms;
      },
    };
  };

  it('immediate: every listed file', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.csv'), 'a');
    const listing = await listArrived(
      openLocalLocation(),
      join(dir, '*.csv'),
      { type: 'immediate' },
      { clock: clock() },
    );
    expect(listing.ready.map((f) => f.path)).toEqual([join(dir, 'a.csv')]);
  });

  it('stable, one-shot: lists twice stableAfterSeconds apart; a file written in between waits', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'done.csv'), 'complete');
    writeFileSync(join(dir, 'growing.csv'), 'part 1');
    const slept: number[] = [];
    const c = clock(() => appendFileSync(join(dir, 'growing.csv'), ', part 2'));
    const sleep = c.sleep;
    c.sleep = async (ms) => {
      slept.push(ms);
      await sleep(ms);
    };
    const listing = await listArrived(
      openLocalLocation(),
      join(dir, '*.csv'),
      { type: 'stable', stableAfterSeconds: 3 },
      { clock: c },
    );
    expect(slept).toEqual([3000]);
    expect(listing.ready.map((f) => f.path)).toEqual([join(dir, 'done.csv')]);
    expect(listing.waiting).toEqual([
      { path: join(dir, 'growing.csv'), reason: expect.stringMatching(/still changing/) },
    ]);
  });

  it('marker: a file with its <name>.done is ready, one without waits, and a marker is never an export', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.csv'), 'a');
    writeFileSync(join(dir, 'a.csv.done'), '');
    writeFileSync(join(dir, 'b.csv'), 'b');
    const arrival = { type: 'marker', suffix: '.done' } as const;
    // A glob wide enough to list the markers themselves.
    const listing = await listArrived(openLocalLocation(), join(dir, '*'), arrival, { clock: clock() });
    expect(listing.ready.map((f) => f.path)).toEqual([join(dir, 'a.csv')]);
    expect(listing.waiting).toEqual([
      { path: join(dir, 'b.csv'), reason: `no marker file ${join(dir, 'b.csv')}.done yet` },
    ]);
    expect(markerOf(arrival, '/x.csv')).toBe('/x.csv.done');
    expect(markerOf({ type: 'immediate' }, '/x.csv')).toBeUndefined();
  });
});

describe('source.location, arrival and afterRun in a feed', () => {
  // One source string, its lines separated by \n, as the tests write them.
  const feed = (source: string) => csvFeedWith(source.split('\n').map((line) => line.replace(/^ {2}/, '')));

  it('local (default): path relative to the feed file, immediate arrival, files left after a run', () => {
    const loaded = feed('  path: exports/*.csv');
    expect(loaded.sourceGlob).toBe('/feeds/exports/*.csv');
    expect(arrivalOf(loaded.feed.source)).toEqual({ type: 'immediate' });
    expect(afterCareOf(loaded.feed.source)).toEqual({ action: 'leave' });
  });

  it('remote: path taken as is, stable arrival by default; marker as a string; move with its folders', () => {
    const loaded = feed(
      [
        '  path: /in/bank-*.csv',
        '  location: { type: sftp, host: h, user: u, passwordEnv: P, hostKey: "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }',
        '  afterRun: move',
        '  failedFolder: /quarantine',
      ].join('\n'),
    );
    expect(loaded.sourceGlob).toBe('/in/bank-*.csv');
    expect(arrivalOf(loaded.feed.source)).toEqual({ type: 'stable', stableAfterSeconds: 10 });
    expect(afterCareOf(loaded.feed.source)).toEqual({
      action: 'move',
      processedFolder: 'processed',
      failedFolder: '/quarantine',
    });
    expect(arrivalOf(feed('  path: x.csv\n  arrival: marker').feed.source)).toEqual({
      type: 'marker',
      suffix: '.done',
    });
    expect(
      arrivalOf(feed('  path: x.csv\n  arrival: { type: stable, stableAfterSeconds: 2 }').feed.source),
    ).toEqual({
      type: 'stable',
      stableAfterSeconds: 2,
    });
  });

  it('refuses an unknown arrival, a folder climbing out, and a marker suffix with a slash, naming the key', () => {
    const problems = (source: string) => thrownBy(ConfigError, () => feed(source)).message;
    expect(problems('  path: x.csv\n  arrival: soon')).toMatch(/source\.arrival/);
    expect(problems('  path: x.csv\n  afterRun: move\n  processedFolder: ../elsewhere')).toMatch(
      /source\.processedFolder.*without "\.\."/,
    );
    expect(problems('  path: x.csv\n  arrival: { type: marker, suffix: a/b }')).toMatch(
      /source\.arrival\.suffix/,
    );
  });
});
