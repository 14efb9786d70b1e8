import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Feed } from '../../../src/config/feed.js';
import { FileIdentityStore } from '../../../src/in-process/identity-file-store.js';
import { MemoryRun } from '../../../src/in-process/memory-run.js';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import { openRecords } from '../../../src/sources/open-records.js';
import type { FeedAccount } from '../../../src/sync/feed-account.js';
import { type IdentitySettings, identitySettings } from '../../../src/sync/identity/settings.js';
import { openRun } from '../../../src/sync/run/open-run.js';
import { FakeClock } from '../../support/fake-clock.js';
import { captureLogs } from '../../support/log-capture.js';
import { tempDirs, unaskedClient, usersFeed } from '../../support/run-fixture.js';

const feed = usersFeed('open');
const freshDir = tempDirs('open-run-');

/**
 * A run of this process about to open (no export file: the identity check reads none), its
 * identity settings kept in a fresh report folder, unreadable when `garbled`.
 */
async function openingRun(garbled: boolean) {
  const dir = await freshDir();
  const store = new FileIdentityStore(dir);
  if (garbled) await writeFile(store.path, '{ not json');
  const run = new MemoryRun('run-1', await FileReportSink.create(dir, 'run-1'), async () => {});
  const logs = captureLogs();
  const clock = new FakeClock();
  // Never asked: users prepare nothing, and nothing is predicted.
  const client = unaskedClient(clock);
  const context = { client, clock, logger: logs.logger, accountId: 1001 };
  const expected: IdentitySettings[] = [];
  const open = (account: FeedAccount<Feed>, dryRun: boolean) =>
    openRun(
      { account, dryRun, files: [], open: openRecords, identity: { store, accept: false } },
      { run, expectWrites: async (settings) => void expected.push(settings) },
      { logger: logs.logger, context: () => context, chunkContext: () => context },
    );
  return { run, logs, expected, open };
}

const notFound = {
  feed,
  stop: { code: 'ACCOUNT_NOT_FOUND', exitCode: 2 as const, message: 'no such account; nothing was sent' },
};

describe("the run's opening (sync/run/open-run.ts)", () => {
  it('a real run that passes keeps the settings it was checked under for its first write; a dry run keeps none', async () => {
    const real = await openingRun(false);
    expect((await real.open({ feed }, false)).stop).toBeUndefined();
    expect(real.expected).toEqual([identitySettings(feed)]);
    const dry = await openingRun(false);
    expect((await dry.open({ feed }, true)).stop).toBeUndefined();
    expect(dry.expected).toEqual([]);
  });

  it('stops a run whose identity settings cannot be read, before anything is sent', async () => {
    const { open, run, logs, expected } = await openingRun(true);
    const opened = await open({ feed }, false);
    expect(opened.stop?.code).toBe('IDENTITY_STATE_UNREADABLE');
    expect((await run.stopReason())?.code).toBe('IDENTITY_STATE_UNREADABLE');
    expect(logs.entries().filter((e) => e.code === 'IDENTITY_STATE_UNREADABLE')).toHaveLength(1);
    expect(expected).toEqual([]);
  });

  it('an account not found stops the run before its identity is read; its dry run goes on, with a warning', async () => {
    const real = await openingRun(true);
    expect((await real.open(notFound, false)).stop?.code).toBe('ACCOUNT_NOT_FOUND');
    const dry = await openingRun(false);
    const opened = await dry.open(notFound, true);
    expect(opened.stop).toBeUndefined();
    expect(await opened.prepare(feed)).toMatchObject({ mode: feed.mode });
    expect(dry.logs.entries().filter((e) => e.level === 'warn')).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(/^dry run: no such account; every record would be sent/),
      }),
    ]);
  });

  it('a run already stopped (its location refused the listing) is neither checked nor set to store settings', async () => {
    const { open, run, logs, expected } = await openingRun(true);
    const refused = { code: 'LOCATION_AUTH', exitCode: 2 as const, message: 'login refused' };
    await run.stop(refused);
    const opened = await open({ feed }, false);
    expect(opened.stop).toBeUndefined();
    expect(await run.stopReason()).toEqual(refused);
    expect(
      logs.entries().filter((e) => e.msg !== undefined && String(e.msg).startsWith('run stopped')),
    ).toEqual([]);
    expect(expected).toEqual([]);
  });
});
