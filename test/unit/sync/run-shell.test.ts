import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRun } from '../../../src/in-process/memory-run.js';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import { openLocation } from '../../../src/sources/locations/open-location.js';
import type { Chunk } from '../../../src/sync/chunk.js';
import { endRun, type RunDeps, type RunRead, readRun, runToEnd } from '../../../src/sync/run/run.js';
import type { RunPort } from '../../../src/sync/run/run-port.js';
import { FakeClock } from '../../support/fake-clock.js';
import { captureLogs } from '../../support/log-capture.js';
import { tempDirs, unaskedClient, usersFeed } from '../../support/run-fixture.js';

const feed = usersFeed('shell');
const freshDir = tempDirs('run-shell-');

/**
 * A run of three users through a port whose chunks settle later (as a gate's or a queue's do):
 * `running` collects them, `drain` waits for them.
 */
async function shellRun() {
  const dir = await freshDir();
  const path = join(dir, 'users.csv');
  await writeFile(path, 'id,email,first,last\nu1,a@x.de,A,B\nu2,c@x.de,C,D\nu3,e@x.de,E,F\n');
  const run = new MemoryRun('run-1', await FileReportSink.create(dir, 'run-1'), async () => {});
  const running: Promise<void>[] = [];
  const port: RunPort = {
    ...run.kept,
    expectWrites: async () => {},
    dispatch: async (chunk: Chunk) => {
      const settle = async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await run.report.record(
          chunk.records.map((r) => ({
            file: r.file,
            line: r.line,
            externalId: r.externalId,
            outcome: 'created' as const,
            serviceId: r.line,
          })),
        );
      };
      running.push(settle());
    },
    drain: async () => void (await Promise.all(running)),
  };
  const logs = captureLogs();
  const clock = new FakeClock();
  const context = { client: unaskedClient(clock), clock, logger: logs.logger, accountId: 1001 };
  const location = openLocation(undefined, {});
  const deps: RunDeps = {
    logger: logs.logger,
    now: () => clock.now(),
    context: () => context,
    chunkContext: () => context,
  };
  const input = {
    runId: 'run-1',
    account: { feed },
    dryRun: false,
    location,
    paths: [path],
    startedAt: clock.now(),
  };
  return { port, deps, input, logs, location };
}

describe("the run's shell (sync/run/run.ts)", () => {
  it('in one execution: every chunk settled (the port drained) before the run ends', async () => {
    const { port, deps, input, logs, location } = await shellRun();
    const summary = await runToEnd(input, port, deps);
    await location.close();
    expect(summary.counts.created).toBe(3);
    expect(logs.entries().filter((e) => e.alert === true)).toEqual([]);
  });

  it('in two executions: what the reading leaves, kept as JSON, ends the run as one execution does', async () => {
    const { port, deps, input, location } = await shellRun();
    const read = await readRun(input, port, deps);
    await port.drain?.();
    const kept = JSON.parse(JSON.stringify(read)) as RunRead;
    const summary = await endRun(input, kept, port, deps);
    await location.close();
    expect(summary.counts.created).toBe(3);
    expect(summary.files).toEqual([expect.objectContaining({ path: input.paths[0], records: 3 })]);
  });
});
