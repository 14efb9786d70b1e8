/**
 * The library-alone baselines of the reader benchmark (readers.bench.ts), on the same files as the
 * readers, with nothing of erp-bridge: the file read in chunks of the readers' size and decoded as
 * UTF-8 by node, then
 *
 * - `saxes <file.xml>`: saxes parses it (the options the camt reader needs: namespaces and
 *   positions), the only handler counting `Ntry` end tags;
 * - `lines <file.sta>`: MT940 has no parsing library (erp-bridge's reader is hand-written), so the
 *   floor is splitting into lines with node:readline, counting those that start with `:61:`;
 * - `xlsx <file.xlsx>`: the two libraries the xlsx reader is built on, alone: yauzl opens the file
 *   (from the disk, not through a location), inflates the first sheet's part, node decodes it as
 *   UTF-8 and saxes (namespace-unaware, as the reader's) parses it, counting `row` end tags (the
 *   header row is one). Not the workbook's index parts (sheet list, styles, shared strings): the
 *   benchmark's hold a few hundred bytes, and the sheet is where a large workbook's rows are.
 *
 *   node --import tsx test/bench/library-child.ts saxes|lines|xlsx <file>
 *
 * Prints one JSON line like read-child.ts: records (entries counted), CPU (µs) and wall time from
 * opening the file to its end, peak RSS (kB).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { READ_CHUNK_BYTES } from '../../src/sources/decode.js';

const [mode, file] = process.argv.slice(2);
type Mode = 'saxes' | 'lines' | 'xlsx';
const isMode = (name: string | undefined): name is Mode =>
  name === 'saxes' || name === 'lines' || name === 'xlsx';
if (!isMode(mode) || !file) throw new Error('usage: library-child.ts saxes|lines|xlsx <file>');

async function countEntryEndTags(path: string): Promise<number> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let entries = 0;
  parser.on('closetag', (tag) => {
    if (tag.local === 'Ntry') entries++;
  });
  parser.on('error', (error) => {
    throw error;
  });
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES }))
    parser.write(chunk as string);
  parser.close();
  return entries;
}

async function countEntryLines(path: string): Promise<number> {
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let entries = 0;
  for await (const line of lines) if (line.startsWith(':61:')) entries++;
  return entries;
}

const SHEET_PART = 'xl/worksheets/sheet1.xml';

async function countSheetRows(path: string): Promise<number> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  try {
    const sheet = await new Promise<yauzl.Entry>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) =>
        entry.fileName === SHEET_PART ? resolve(entry) : zip.readEntry(),
      );
      zip.on('end', () => reject(new Error(`${path} has no ${SHEET_PART}`)));
      zip.on('error', reject);
      zip.readEntry();
    });
    const text = await zip.openReadStreamPromise(sheet);
    text.setEncoding('utf8');
    const parser = new SaxesParser();
    let rows = 0;
    parser.on('closetag', (tag) => {
      if (tag.name === 'row') rows++;
    });
    parser.on('error', (error) => {
      throw error;
    });
    for await (const chunk of text) parser.write(chunk as string);
    parser.close();
    return rows;
  } finally {
    zip.close();
  }
}

const count: Record<Mode, (path: string) => Promise<number>> = {
  saxes: countEntryEndTags,
  lines: countEntryLines,
  xlsx: countSheetRows,
};
const cpuBefore = process.cpuUsage();
const started = performance.now();
const records = await count[mode](file);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({ records, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
