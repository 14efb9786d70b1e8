import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../../src/report-files/capped-lines.js';
import { writeExtraReport } from '../../../src/report-files/extra-report.js';
import { FileReportSink, OUTCOME_COLUMNS, outcomeJsonLine } from '../../../src/report-files/file-sink.js';
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

describe('an outcomes.ndjson with a line that is no outcome', () => {
  /** A report folder whose outcomes.ndjson holds `lines` (outcomeJsonLine's or anything else). */
  const folder = (name: string, lines: readonly string[]) => {
    const at = join(dir, name);
    mkdirSync(at);
    writeFileSync(join(at, 'outcomes.ndjson'), lines.join(''));
    return at;
  };
  const good = (line: number) => outcomeJsonLine({ file: 'a.csv', line, outcome: 'created' }, 'r');

  for (const format of ['excel-csv', 'excel'] as const)
    it(`fails the ${format} report naming the file and the first such line, never writing fewer rows`, async () => {
      const at = folder(`damaged-${format}`, [
        good(2),
        '\n',
        '{"file":"a.csv","line":3,"outcome":"maybe","runId":"r"}\n',
        good(4),
        '{"file":"a.csv",\n',
        good(6),
      ]);
      const ndjson = join(at, 'outcomes.ndjson');
      await expect(writeExtraReport(format, at, ndjson, 'r', OUTCOME_COLUMNS)).rejects.toThrow(
        `${ndjson}: 2 lines are not an outcome (the first, line 3: outcome: `,
      );
      // Neither the report nor its partial is left: no file that looks whole but lacks a line.
      expect(readdirSync(at)).toEqual(['outcomes.ndjson']);
    });

  it("fails on a line longer than a record line can be (the reader's cap), read without holding it", async () => {
    const at = folder('over-long', [good(2), `{"message":"${'x'.repeat(MAX_LINE_BYTES * 2)}"}\n`, good(4)]);
    await expect(
      writeExtraReport('excel-csv', at, join(at, 'outcomes.ndjson'), 'r', OUTCOME_COLUMNS),
    ).rejects.toThrow(
      /a line is not an outcome \(the first, line 2: longer than 64 KiB\); outcomes\.excel\.csv is not written/,
    );
    expect(readdirSync(at)).toEqual(['outcomes.ndjson']);
  });

  it("keeps a character whole when the file's read chunks split it", async () => {
    const message = 'Prüfsumme ungültig '.repeat(1_500);
    const lines = [2, 3, 4, 5, 6, 7, 8];
    const at = folder(
      'umlauts',
      lines.map((line) => outcomeJsonLine({ file: 'konto.csv', line, outcome: 'rejected', message }, 'r')),
    );
    // The second 64 KiB chunk of the file (the reader's) ends inside an ü: its next byte continues it.
    expect(readFileSync(join(at, 'outcomes.ndjson'))[2 * 64 * 1024]).toBe(0xbc);
    const path = await writeExtraReport('excel-csv', at, join(at, 'outcomes.ndjson'), 'r', OUTCOME_COLUMNS);
    const rows = readFileSync(path, 'utf8').split('\r\n').slice(1, -1);
    expect(rows.map((row) => row.split(';')[6])).toEqual(lines.map(() => message));
  });
});
