import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import { summaryOf } from '../../support/run-summaries.js';

const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-extra-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const outcomes = (lines: readonly number[]): RecordOutcome[] =>
  lines.map((line) => ({ file: '/x/a.csv', line, outcome: 'created', amount: `-${line}.5` }));

describe("a run's extra report", () => {
  it('holds the lines of outcomes.csv in the same (report) order, whatever order outcomes arrived in', async () => {
    const sink = await FileReportSink.create(dir, 'run-order', 'excel-csv');
    await sink.record(outcomes([5, 6, 7]));
    await sink.record(outcomes([2, 3, 4]));
    await sink.finish(summaryOf({ runId: 'run-order' }));
    const csvLines = readFileSync(sink.files.csv, 'utf8').split('\r\n').filter(Boolean);
    const german = readFileSync(join(sink.files.dir, 'outcomes.excel.csv'), 'utf8')
      .slice(1)
      .split('\r\n')
      .filter(Boolean);
    expect(german.map((l) => l.split(';')[1])).toEqual(csvLines.map((l) => l.split(',')[1]));
    expect(german.slice(1).map((l) => l.split(';')[1])).toEqual(['2', '3', '4', '5', '6', '7']);
    expect(german[1]).toContain(';-2,5;');
  });

  it('when it cannot be written, the run still gets its summary.json, and the error is not swallowed', async () => {
    const sink = await FileReportSink.create(dir, 'run-broken', 'excel-csv');
    // A folder where the extra file's partial would be written: it cannot be opened.
    mkdirSync(join(sink.files.dir, 'outcomes.excel.csv.part'));
    await sink.record(outcomes([2]));
    await expect(sink.finish(summaryOf({ runId: 'run-broken' }))).rejects.toThrow(/EISDIR/);
    expect(existsSync(sink.files.summary)).toBe(true);
    expect(existsSync(sink.files.csv)).toBe(true);
  });
});

describe('a workbook that cannot be written', () => {
  it('fails the run finish (summary.json still written) rather than waiting for ever', async () => {
    const sink = await FileReportSink.create(dir, 'run-broken-xlsx', 'excel');
    mkdirSync(join(sink.files.dir, 'outcomes.xlsx.part'));
    await sink.record(outcomes(Array.from({ length: 5_000 }, (_, i) => i + 2)));
    await expect(sink.finish(summaryOf({ runId: 'run-broken-xlsx' }))).rejects.toThrow(/EISDIR/);
    expect(existsSync(sink.files.summary)).toBe(true);
  });
});
