import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSourceBytes, Source } from '../../../src/sources/formats/registry.js';
import { openBytes } from '../../../src/sources/raw-file.js';
import { repoRoot, runCli } from '../../support/cli-run.js';

/**
 * `sync --sandbox --report-format`: the extra files beside outcomes.csv/.ndjson, which stay the
 * same bytes as a csv run's; the setting's precedence (flag, env, feed) and its wrong values.
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-report-format-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const demoFeed = join(repoRoot, 'config/feeds/demo/rejects/acme-bank.yaml');
/** The demo feed (one rejected row) with `report:` added, its export path made absolute. */
function feedWith(report: string | undefined): string {
  const exports = join(repoRoot, 'config/feeds/demo/rejects/exports');
  const text = readFileSync(demoFeed, 'utf8').replace('path: exports/', `path: ${exports}/`);
  const path = join(work, `feed-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, report === undefined ? text : `${text}report: ${report}\n`);
  return path;
}

interface Run {
  code: number | null;
  stderr: string;
  dir: string;
  runId: string;
  files: string[];
}

async function sync(feed: string, args: string[] = [], env: Record<string, string> = {}): Promise<Run> {
  const reportDir = mkdtempSync(join(work, 'reports-'));
  const ran = await runCli(['sync', feed, '--sandbox', '--report-dir', reportDir, ...args], env);
  const runs = readdirSync(reportDir).filter((e) => !e.startsWith('.'));
  const runId = runs[0] ?? '';
  const dir = join(reportDir, runId);
  return { code: ran.code, stderr: ran.stderr, dir, runId, files: runId ? readdirSync(dir).sort() : [] };
}

/** A report file's bytes with the run's id (time and random part) replaced: two runs compare. */
const bytesOf = (run: Run, file: string) =>
  readFileSync(join(run.dir, file)).toString('latin1').replaceAll(run.runId, 'RUN');

describe('sync --report-format', () => {
  it('csv (the default), excel and excel-csv: the default files are the same bytes; each format adds its file', async () => {
    const feed = feedWith(undefined);
    const csv = await sync(feed);
    expect(csv.code, csv.stderr).toBe(1);
    expect(csv.files).toEqual(['outcomes.csv', 'outcomes.ndjson', 'summary.json']);
    const flagged = await sync(feed, ['--report-format', 'csv']);
    const excel = await sync(feed, ['--report-format', 'excel']);
    const excelCsv = await sync(feed, ['--report-format', 'excel-csv']);
    expect(flagged.files).toEqual(csv.files);
    expect(excel.files).toEqual(['outcomes.csv', 'outcomes.ndjson', 'outcomes.xlsx', 'summary.json']);
    expect(excelCsv.files).toEqual(['outcomes.csv', 'outcomes.excel.csv', 'outcomes.ndjson', 'summary.json']);
    for (const run of [flagged, excel, excelCsv]) {
      expect(run.code, run.stderr).toBe(1);
      expect(bytesOf(run, 'outcomes.csv')).toBe(bytesOf(csv, 'outcomes.csv'));
      expect(bytesOf(run, 'outcomes.ndjson')).toBe(bytesOf(csv, 'outcomes.ndjson'));
    }

    // The German CSV: BOM, ';', CRLF, the same rows as outcomes.csv, amounts with a decimal comma.
    const german = readFileSync(join(excelCsv.dir, 'outcomes.excel.csv'), 'utf8');
    expect(
      german.startsWith('\uFEFFfile;line;externalId;outcome;serviceId;code;message;amount;runId;key\r\n'),
    ).toBe(true);
    const lines = german.slice(1).split('\r\n').filter(Boolean);
    const plain = readFileSync(join(excelCsv.dir, 'outcomes.csv'), 'utf8').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(plain.length);
    expect(german).toMatch(/;-?\d+,\d\d;/);
    expect(german).toContain(';rejected;');

    // The workbook: every outcome of outcomes.ndjson, each cell as the ndjson has it.
    const outcomes = readFileSync(join(excel.dir, 'outcomes.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string | number>);
    const path = join(excel.dir, 'outcomes.xlsx');
    const source = Source.parse({ format: 'xlsx', path: 'x.xlsx' });
    const reading = readSourceBytes('xlsx', source, path, openBytes(path).input);
    const cells: Record<string, string>[] = [];
    for await (const batch of reading.batches)
      for (const item of batch)
        if (item.kind === 'row')
          cells.push(
            Object.fromEntries(
              ['line', 'externalId', 'outcome', 'amount', 'runId'].map((c) => [c, item.row.cell(c) ?? '']),
            ),
          );
    expect(cells).toEqual(
      outcomes.map((o) => ({
        line: String(o.line),
        externalId: String(o.externalId ?? ''),
        outcome: o.outcome,
        amount: String(o.amount ?? ''),
        runId: excel.runId,
      })),
    );
  }, 60_000);

  it('takes the flag over the environment over the feed', async () => {
    const feed = feedWith('{ format: excel-csv }');
    expect((await sync(feed)).files).toContain('outcomes.excel.csv');
    const fromEnv = await sync(feed, [], { ERP_BRIDGE_REPORT_FORMAT: 'excel' });
    expect(fromEnv.files).toContain('outcomes.xlsx');
    expect(fromEnv.files).not.toContain('outcomes.excel.csv');
    const fromFlag = await sync(feed, ['--report-format', 'csv'], { ERP_BRIDGE_REPORT_FORMAT: 'excel' });
    expect(fromFlag.files).toEqual(['outcomes.csv', 'outcomes.ndjson', 'summary.json']);
  }, 60_000);

  it('refuses a wrong value (exit 2), naming the flag, variable or key and the allowed values', async () => {
    const plain = feedWith(undefined);
    const flag = await sync(plain, ['--report-format', 'xls']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--report-format: expected one of csv, excel, excel-csv (got "xls")');
    expect(flag.files).toEqual([]);
    const env = await sync(plain, [], { ERP_BRIDGE_REPORT_FORMAT: 'xlsx' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain(
      'ERP_BRIDGE_REPORT_FORMAT: expected one of csv, excel, excel-csv (got "xlsx")',
    );
    const feed = await sync(feedWith('{ format: xlsx }'));
    expect(feed.code).toBe(2);
    expect(feed.stderr).toContain('report.format');
    expect(feed.stderr).toMatch(/csv.*excel.*excel-csv/);
  }, 60_000);

  it('report --format excel refuses to write a workbook without --output (exit 2), before asking Redis', async () => {
    const ran = await runCli(['report', 'some-run', '--format', 'excel'], {});
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--format excel needs --output <file>.xlsx');
    expect(ran.stdout).toBe('');
  });
});
