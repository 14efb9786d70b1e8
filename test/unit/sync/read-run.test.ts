import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportJobData } from '../../../src/fleet/import-job.js';
import { MemoryRun } from '../../../src/in-process/memory-run.js';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import { openLocation } from '../../../src/sources/locations/open-location.js';
import type { Chunk } from '../../../src/sync/chunk.js';
import { openRun } from '../../../src/sync/run/open-run.js';
import { exportOpener, readFiles } from '../../../src/sync/run/read-run.js';
import { FakeClock } from '../../support/fake-clock.js';
import { captureLogs } from '../../support/log-capture.js';
import { tempDirs, unaskedClient, usersFeed } from '../../support/run-fixture.js';

const feed = usersFeed('read');
const freshDir = tempDirs('read-run-');
const users = (ids: number[]) =>
  `id,email,first,last\n${ids.map((id) => `u${id},u${id}@example.com,F${id},L${id}`).join('\n')}\n`;

describe("the run's reading (sync/run/read-run.ts)", () => {
  it('reads each file in order, skips what the port leaves, filters lines, and returns what the fleet keeps', async () => {
    const dir = await freshDir();
    const [a, b, c] = ['a.csv', 'b.csv', 'c.csv'].map((name) => join(dir, name));
    if (!a || !b || !c) throw new Error('three files');
    await writeFile(a, users([1, 2, 3]));
    await writeFile(b, users([4]));
    await writeFile(c, users([5, 6]));
    const run = new MemoryRun('run-1', await FileReportSink.create(dir, 'run-1'), async () => {});
    const logs = captureLogs();
    const clock = new FakeClock();
    const context = { client: unaskedClient(clock), clock, logger: logs.logger, accountId: 1001 };
    const location = openLocation(undefined, {});
    // Only lines 2 and 4 of a.csv (the header is line 1), every line of c.csv.
    const open = exportOpener(location, (path) => (path === a ? new Set([2, 4]) : new Set([2, 3])));
    const { prepare, predict } = await openRun(
      { account: { feed }, dryRun: false, files: [a, c], open },
      { run, expectWrites: async () => {} },
      { logger: logs.logger, context: () => context, chunkContext: () => context },
    );
    const chunks: Chunk[] = [];
    const opened: string[] = [];
    const reads = await readFiles(
      [a, b, c],
      { runId: 'run-1', feed, dryRun: false, open },
      {
        run,
        dispatch: async (chunk) => void chunks.push(chunk),
        skip: (path) => path === b,
        watch: (path, opener) => {
          opened.push(path);
          return opener;
        },
      },
      { logger: logs.logger, prepare, predict },
    );
    await location.close();

    expect(opened).toEqual([a, c]);
    expect(reads.map((r) => [r.path, r.read.records])).toEqual([
      [a, 2],
      [c, 2],
    ]);
    expect(chunks.flatMap((chunk) => chunk.records.map((r) => [r.file, r.line]))).toEqual([
      [a, 2],
      [a, 4],
      [c, 2],
      [c, 3],
    ]);
    // What the fleet stores between its passes is exactly what was read (a strict schema).
    for (const r of reads) {
      const data = { runId: 'run-1', feed: 'read.yaml', file: r.path, dryRun: false, read: r.read };
      expect(ImportJobData.parse(data).read).toEqual(r.read);
    }
  });
});
