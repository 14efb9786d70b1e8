import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { cliSandboxPerFile, runCli } from '../../support/cli-run.js';
import { repeated, rowOf, sheetXml, writeZipStreamed, xlsxParts } from '../../support/xlsx-files.js';

/**
 * Hostile exports for every reader, generated into a temp folder as streams (none is committed or
 * held whole), each synced by the CLI in a child process whose V8 heap is capped at 256 MB: the
 * run must end with its summary naming what was refused, never with a crash, and its peak RSS
 * (the kernel's count, written by the child as it exits) must stay under 300 MB.
 */
const { work, env } = cliSandboxPerFile('hostile');

/** Writes the child's peak RSS (kB) to RSS_FILE as it exits: no code of the bridge involved. */
const RSS_HOOK = `data:text/javascript,${encodeURIComponent(
  "import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(process.env.RSS_FILE,String(process.resourceUsage().maxRSS)))",
)}`;

interface Synced {
  code: number | null;
  stderr: string;
  summary: RunSummary | undefined;
  peakRssMb: number;
}

let runs = 0;

/** `sync <feed> --sandbox` with a 256 MB heap; its summary (if it wrote one) and peak RSS. */
async function syncCapped(feedFile: string): Promise<Synced> {
  const dir = mkdtempSync(join(work, `run${runs++}-`));
  const reportDir = join(dir, 'reports');
  const rssFile = join(dir, 'rss');
  const ran = await runCli(['sync', feedFile, '--sandbox', '--report-dir', reportDir], {
    ...env(),
    NODE_OPTIONS: `--max-old-space-size=256 --import=${RSS_HOOK}`,
    RSS_FILE: rssFile,
  });
  let summary: RunSummary | undefined;
  try {
    const [run] = readdirSync(reportDir).filter((entry) => !entry.startsWith('.'));
    if (run) summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as RunSummary;
  } catch {
    summary = undefined;
  }
  // A process killed by V8 (heap out of memory) never runs its exit hook: no peak to read.
  const peakRssMb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) / 1024 : Number.NaN;
  return { code: ran.code, stderr: ran.stderr, summary, peakRssMb };
}

/** A folder with the feed (its `source` keys given) and the export it reads. */
function feedDir(name: string, source: Record<string, string | number>, mapping: string): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  const keys = Object.entries(source)
    .map(([key, value]) => `  ${key}: ${typeof value === 'string' ? JSON.stringify(value) : value}`)
    .join('\n');
  writeFileSync(
    join(dir, 'feed.yaml'),
    `name: hostile-${name}
accountId: 1001
kind: transactions
source:
${keys}
bankAccount: { externalId: main, accountName: Main, bankName: Bank, accountCurrency: EUR }
${mapping}
`,
  );
  return dir;
}

const TABLE_MAPPING = 'mapping: { externalId: ID, bookingDate: Date, amount: Amount }';
/** An xlsx feed; the tests of what a part holds lift the ratio cap that would refuse it first. */
const xlsxFeed = (name: string, keys: Record<string, number> = {}) =>
  feedDir(name, { path: 'export.xlsx', format: 'xlsx', ...keys }, TABLE_MAPPING);
const HEADER = rowOf(1, ['ID', 'Date', 'Amount']);
const good = (r: number) => rowOf(r, [`T${r}`, '2024-01-31', '1.00']);

/** An xlsx workbook of one sheet whose rows (and shared strings) come as pieces. */
async function workbook(
  dir: string,
  rows: Iterable<string>,
  sharedStrings?: Iterable<string>,
): Promise<void> {
  const parts: Record<string, string | Iterable<string>> = xlsxParts({
    sheets: [{ name: 'Export', rows: '' }],
  });
  parts['xl/worksheets/sheet1.xml'] = (function* () {
    yield sheetXml.open;
    yield* rows;
    yield sheetXml.close;
  })();
  if (sharedStrings)
    parts['xl/sharedStrings.xml'] = (function* () {
      yield '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
      yield* sharedStrings;
      yield '</sst>';
    })();
  await writeZipStreamed(join(dir, 'export.xlsx'), parts);
}

/** A workbook whose row 3 is one inline-string cell A3 holding `content`, between good rows 2 and 4. */
function workbookWithCell(dir: string, content: Iterable<string>): Promise<void> {
  return workbook(dir, [
    HEADER,
    good(2),
    '<row r="3"><c r="A3" t="inlineStr"><is>',
    ...content,
    '</is></c></row>',
    good(4),
  ]);
}

/** A text export written a piece at a time. */
async function textFile(path: string, pieces: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const piece of pieces) if (!out.write(piece)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** What every hostile run must show: a summary, no crash, a bounded peak. */
function endedWithSummary(run: Synced): RunSummary {
  expect(run.stderr).not.toMatch(/heap out of memory|FATAL ERROR/);
  expect(run.code === 1 || run.code === 2).toBe(true);
  expect(run.summary).toBeDefined();
  expect(run.peakRssMb).toBeLessThan(300);
  return run.summary as RunSummary;
}

describe('hostile xlsx workbooks', () => {
  it('a veryHidden first sheet is not read: the first sheet shown is, and the summary names it', async () => {
    const dir = xlsxFeed('hidden-first');
    await writeZipStreamed(
      join(dir, 'export.xlsx'),
      xlsxParts({
        sheets: [
          { name: 'Lookup', rows: HEADER + good(2) + good(3), state: 'veryHidden' },
          { name: 'Bookings', rows: HEADER + good(5) },
        ],
      }),
    );
    const run = await syncCapped(join(dir, 'feed.yaml'));
    expect(run.code).toBe(0);
    expect(run.summary?.counts).toMatchObject({ created: 1, rejected: 0 });
    expect(run.summary?.files).toEqual([expect.objectContaining({ sheet: 'Bookings' })]);
  }, 120_000);

  it('a shared-strings bomb (12 million strings, 200 MB inflated) is refused before it is read', async () => {
    const dir = xlsxFeed('sst-bomb');
    await workbook(dir, [HEADER, good(2)], repeated('<si><t>x</t></si>', 12_000_000));
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.stopReason).toMatchObject({ code: 'SOURCE_TOO_LARGE', exitCode: 2 });
    expect(summary.stopReason?.message).toMatch(
      /export\.xlsx: the part xl\/sharedStrings\.xml inflates to 204000\d+ bytes, more than 33554432/,
    );
  }, 120_000);

  it('a zip bomb (a sheet inflating a thousand times) is refused by its compression ratio', async () => {
    const dir = xlsxFeed('ratio-bomb');
    await workbook(dir, [HEADER, good(2), ...repeated('<row/>', 20_000_000)]);
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.stopReason).toMatchObject({ code: 'SOURCE_TOO_LARGE', exitCode: 2 });
    expect(summary.stopReason?.message).toMatch(
      /the part xl\/worksheets\/sheet1\.xml inflates \d+ times .* more than maxCompressionRatio \(100\)/,
    );
  }, 120_000);

  it('a 100 MB cell: its row is rejected, the rows before and after it sync', async () => {
    const dir = xlsxFeed('big-cell', { maxCompressionRatio: 1e9 });
    // The text in runs of 64 KiB, as a writer may split it: the cell is cut off at maxCellBytes.
    const runs = repeated(`<r><t>${'x'.repeat(65_536)}</t></r>`, 1600);
    await workbookWithCell(dir, runs);
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.counts).toMatchObject({ created: 2, rejected: 1 });
    expect(summary.firstErrors).toEqual([
      expect.objectContaining({
        line: 3,
        code: 'UNREADABLE_ROW',
        message:
          'row 3: column A ("ID") holds more than maxCellBytes (1048576 bytes of text); the row is rejected',
      }),
    ]);
  }, 120_000);

  it('a 100 MB text node: reading stops at its row, the rows before it sync', async () => {
    const dir = xlsxFeed('big-node', { maxCompressionRatio: 1e9 });
    const text = repeated('x', 100_000_000);
    await workbookWithCell(dir, ['<t>', ...text, '</t>']);
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.counts).toMatchObject({ created: 1, rejected: 1 });
    expect(summary.firstErrors).toEqual([
      expect.objectContaining({
        line: 3,
        code: 'UNREADABLE_ROW',
        message: expect.stringMatching(
          /cannot be read after row 2: a text or markup token longer than 1048576 characters/,
        ),
      }),
    ]);
  }, 120_000);

  it('a million nested elements in a cell: reading stops at its row', async () => {
    const dir = xlsxFeed('deep-xlsx', { maxCompressionRatio: 1e9 });
    await workbookWithCell(dir, [...repeated('<x>', 1_000_000), ...repeated('</x>', 1_000_000)]);
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.counts).toMatchObject({ created: 1, rejected: 1 });
    expect(summary.firstErrors[0]?.message).toMatch(
      /cannot be read after row 2: elements nested more than 64 deep/,
    );
  }, 120_000);
});

const CAMT_HEAD = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>S1</Id><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy></Acct>`;
const CAMT_TAIL = '</Stmt></BkToCstmrStmt></Document>';
const entry = (ref: string, inner = '') =>
  `<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-01-31</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef>${inner}</Ntry>`;

/** Syncs a camt file of one statement holding `entries` (as pieces), ended with its summary. */
async function syncCamt(name: string, entries: Iterable<string>): Promise<RunSummary> {
  const dir = feedDir(name, { path: 'export.xml', format: 'camt' }, '');
  await textFile(join(dir, 'export.xml'), [CAMT_HEAD, ...entries, CAMT_TAIL]);
  return endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
}

describe('hostile camt statements', () => {
  it('300,000 nested unknown elements in an entry: refused at the entry, in time linear in the file', async () => {
    // Without the depth cap saxes looks for the default namespace through every open element:
    // 40,000 nested elements took 152 s, 300,000 did not end in 10 minutes.
    const summary = await syncCamt('deep-camt', [
      entry('R1'),
      entry('R2').replace('</Ntry>', ''),
      ...repeated('<Xy>', 300_000),
      ...repeated('</Xy>', 300_000),
      '</Ntry>',
    ]);
    expect(summary.counts).toMatchObject({ created: 1, rejected: 1 });
    expect(summary.firstErrors[0]?.message).toMatch(
      /^elements nested more than 64 deep, more than a camt file has: the entry starting on this line is incomplete/,
    );
  }, 120_000);

  it('a million empty elements in an entry: that entry is rejected, the next one syncs', async () => {
    const summary = await syncCamt('wide-camt', [
      entry('R1').replace('</Ntry>', ''),
      ...repeated('<X/>', 1_000_000),
      '</Ntry>',
      entry('R2'),
    ]);
    expect(summary.counts).toMatchObject({ created: 1, rejected: 1 });
    expect(summary.firstErrors[0]?.message).toBe(
      'the entry has more than maxEntryElements (200000) elements; it is not read',
    );
  }, 120_000);

  it('a statement repeating its <Acct> 3 million times between two entries: refused past the cap, with its summary', async () => {
    // The statement's own values are kept for the whole statement: uncapped, they grew with the file.
    const account = '<Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy></Acct>';
    const summary = await syncCamt('acct-camt', [entry('R1'), ...repeated(account, 3_000_000), entry('R2')]);
    expect(summary.stopReason).toMatchObject({ code: 'SOURCE_TOO_LARGE', exitCode: 2 });
    expect(summary.stopReason?.message).toMatch(
      /export\.xml: the statement starting on line 1 has more than maxEntryElements \(200000\) elements of its own \(outside its entries and balances\) by line 1/,
    );
    expect(summary.counts.created).toBe(0);
  }, 180_000);

  it('a 100 MB text node: refused at its entry', async () => {
    const summary = await syncCamt('big-camt', [
      entry('R1'),
      entry('R2').replace('</Ntry>', '<AddtlNtryInf>'),
      ...repeated('x', 100_000_000),
      '</AddtlNtryInf></Ntry>',
    ]);
    expect(summary.counts).toMatchObject({ created: 1, rejected: 1 });
    expect(summary.firstErrors[0]?.message).toMatch(/^a text or markup token longer than 1048576 characters/);
  }, 120_000);
});

describe('hostile text exports', () => {
  const lines = (first: string, bigStart: string, bigEnd: string, last: string) => [
    first,
    bigStart,
    ...repeated('x', 100_000_000),
    bigEnd,
    last,
  ];

  it('jsonl: a 100 MB line is rejected alone', async () => {
    const dir = feedDir('big-jsonl', { path: 'export.jsonl', format: 'jsonl' }, TABLE_MAPPING);
    const row = (id: string) => `{"ID":"${id}","Date":"2024-01-31","Amount":"1.00"}\n`;
    await textFile(join(dir, 'export.jsonl'), lines(row('A'), '{"ID":"', '"}\n', row('B')));
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.counts).toMatchObject({ created: 2, rejected: 1 });
    expect(summary.firstErrors[0]).toMatchObject({
      line: 2,
      code: 'UNREADABLE_ROW',
      message:
        'the line is longer than maxRowBytes (1048576 bytes); it is rejected, reading goes on at line 3',
    });
  }, 120_000);

  it('csv: a 100 MB cell is rejected alone', async () => {
    const dir = feedDir('big-csv', { path: 'export.csv', format: 'csv' }, TABLE_MAPPING);
    await textFile(
      join(dir, 'export.csv'),
      lines('ID,Date,Amount\nA,2024-01-31,1.00\n', '"', '",2024-01-31,1.00\n', 'B,2024-01-31,1.00\n'),
    );
    const summary = endedWithSummary(await syncCapped(join(dir, 'feed.yaml')));
    expect(summary.counts).toMatchObject({ created: 2, rejected: 1 });
    expect(summary.firstErrors[0]?.message).toMatch(
      /^the row starting on this line is longer than maxRowBytes \(1048576 bytes\)/,
    );
  }, 120_000);
});
