/**
 * The library-alone baselines of the reader benchmark (readers.bench.ts), on the same files as the
 * readers, with nothing of erp-bridge: the file read in chunks of the readers' size and decoded as
 * UTF-8 by node, then
 *
 * - `saxes <file.xml>`: saxes parses it (the options the camt reader needs: namespaces and
 *   positions), the only handler counting `Ntry` end tags;
 * - `lines <file.sta>`: MT940 has no parsing library (erp-bridge's reader is hand-written), so the
 *   floor is splitting into lines with node:readline, counting those that start with `:61:`.
 *
 *   node --import tsx test/bench/library-child.ts saxes|lines <file>
 *
 * Prints one JSON line like read-child.ts: records (entries counted), CPU (µs) and wall time from
 * opening the file to its end, peak RSS (kB).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SaxesParser } from 'saxes';
import { READ_CHUNK_BYTES } from '../../src/sources/decode.js';

const [mode, file] = process.argv.slice(2);
if ((mode !== 'saxes' && mode !== 'lines') || !file)
  throw new Error('usage: library-child.ts saxes|lines <file>');

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

const cpuBefore = process.cpuUsage();
const started = performance.now();
const records = mode === 'saxes' ? await countEntryEndTags(file) : await countEntryLines(file);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({ records, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
