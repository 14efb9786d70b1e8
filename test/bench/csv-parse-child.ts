/**
 * The baseline of the sync benchmark (sync-1m.bench.ts): csv-parse alone parsing a feed's export,
 * read and decoded with iconv-lite exactly as erp-bridge does (same chunk size, same decoder,
 * same csv-parse options), every record consumed and nothing else done with it.
 *
 *   node --import tsx test/bench/csv-parse-child.ts <feed.yaml>
 *
 * Prints one JSON line: records parsed, CPU (µs, user + system) and wall time from opening the
 * file to the last record — module loading (tsx, csv-parse) is left out, so the baseline is never
 * inflated — and the process's peak RSS (kB).
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { loadFeedFile } from '../../src/config/load-feed.js';
import { decodeStream, READ_CHUNK_BYTES } from '../../src/sources/decode.js';
import { inspectEncoding } from '../../src/sources/encoding-inspect.js';
import { csvParseOptions } from '../../src/sources/formats/csv-reader.js';
import { expandGlob } from '../../src/sources/glob.js';

const feedFile = process.argv[2];
if (!feedFile) throw new Error('usage: csv-parse-child.ts <feed.yaml>');
const { feed, sourceGlob } = await loadFeedFile(feedFile);
const [file] = await expandGlob(sourceGlob);
if (!file) throw new Error(`no export matches ${sourceGlob}`);
if (feed.source.format !== 'csv') throw new Error(`${feedFile}: the baseline parses CSV feeds only`);

// The encoding is resolved before the clock starts: the baseline is decoding and parsing alone.
const encoding = (await inspectEncoding(file, feed.source.encoding, READ_CHUNK_BYTES)).name;

const cpuBefore = process.cpuUsage();
const started = performance.now();
const parser = createReadStream(file, { highWaterMark: READ_CHUNK_BYTES })
  .pipe(decodeStream(encoding))
  .pipe(parse(csvParseOptions(feed.source)));
let records = 0;
for await (const _ of parser) records++;
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({ records, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
