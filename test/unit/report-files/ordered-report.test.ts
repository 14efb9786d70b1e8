import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import { summaryOf } from '../../support/run-summaries.js';

const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-ordered-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deterministic shuffle (LCG), so a failure is reproducible. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('outcomes.csv and outcomes.ndjson', () => {
  it("list each file's records in line order whatever order the batches arrived in, with the run id", async () => {
    const runId = 'feed-x-run';
    const sink = await FileReportSink.create(dir, runId);
    // Two files, 12 batches each (as chunks and rejected-row flushes produce them), every batch
    // in a random place and with its records in a random order.
    const batches: RecordOutcome[][] = [];
    for (const file of ['/x/b.csv', '/x/a.csv'])
      for (let b = 0; b < 12; b++)
        batches.push(
          Array.from({ length: 50 }, (_, i) => ({
            file,
            line: 2 + b + 12 * i, // interleaved: every batch spans the whole file
            outcome: 'created' as const,
            externalId: `${file}-${2 + b + 12 * i}`,
          })),
        );
    for (const batch of shuffled(batches, 7)) await sink.record(shuffled(batch, batch.length + 1));
    await sink.finish(summaryOf({ runId, created: 1200 }));

    const csv = readFileSync(sink.files.csv, 'utf8').trimEnd().split(/\r?\n/);
    expect(csv[0]).toBe('file,line,externalId,outcome,serviceId,code,message,amount,runId,key');
    const rows = csv.slice(1).map((line) => line.split(','));
    const expected = ['/x/a.csv', '/x/b.csv'].flatMap((file) =>
      Array.from({ length: 600 }, (_, i) => [file, String(i + 2)]),
    );
    expect(rows.map(([file, line]) => [file, line])).toEqual(expected);
    expect(rows.every((row) => row[8] === runId)).toBe(true);

    const ndjson = readFileSync(sink.files.ndjson, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as RecordOutcome & { runId: string });
    expect(ndjson.map((o) => [o.file, String(o.line)])).toEqual(expected);
    expect(ndjson.every((o) => o.runId === runId)).toBe(true);
    // The spill file is gone; the report folder holds the report only.
    expect(readdirSync(sink.files.dir).sort()).toEqual(['outcomes.csv', 'outcomes.ndjson', 'summary.json']);
  });
});
