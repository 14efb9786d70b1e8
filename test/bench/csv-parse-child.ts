/**
 * The baseline of the sync benchmark (sync-1m.bench.ts), the readers benchmark and the kinds
 * benchmark: csv-parse alone over a generated export — nothing of erp-bridge's. The file's bytes are
 * read with Node's defaults, decoded by Node's built-in decoder for the generator's encoding (a
 * streaming `TextDecoder`) and parsed with `columns: true` and the generator's delimiter and quote
 * (german-export.ts by default; a DATEV export starts at line 2, after its meta header; never a
 * feed or our readers); every record is consumed and nothing else done with it.
 *
 *   node --import tsx test/bench/csv-parse-child.ts <umsaetze-bench.csv>
 *   node --import tsx test/bench/csv-parse-child.ts <file.csv> '{"encoding":"utf-8","delimiter":";","quote":"\"","fromLine":1}'
 *
 * Why not `latin1`: the generator writes "€" as 0x80 (windows-1252), which Latin-1 reads as U+0080.
 * The decoder must stream: on node 20.18.3+ a one-shot `decode(bytes)` for windows-1252 takes a
 * Latin-1 fast path with that same flaw (nodejs/node#60888); with `{ stream: true }` it goes
 * through ICU's windows-1252 converter and is exact (checked: "€" comes out as U+20AC).
 *
 * Prints one JSON line: records parsed (the header names the columns, so it is not one; the closing
 * balance line is), CPU (µs, user + system) and wall time from opening the file to the last record
 * — module loading (tsx, csv-parse) is left out, so the baseline is never inflated — the process's
 * peak RSS (kB) and its RSS when the clock started (node, tsx and the modules: not parsing's).
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { type CsvLayout, GERMAN_EXPORT_CSV } from './german-export.js';

const [csvFile, layoutJson] = process.argv.slice(2);
if (!csvFile)
  throw new Error(
    'usage: csv-parse-child.ts <export.csv> [layout JSON: encoding, delimiter, quote, fromLine]',
  );
const { encoding, delimiter, quote, fromLine } = layoutJson
  ? (JSON.parse(layoutJson) as CsvLayout)
  : GERMAN_EXPORT_CSV;

const rssBeforeKb = process.memoryUsage().rss / 1024;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const decoder = new TextDecoder(encoding);
let records = 0;
await pipeline(
  createReadStream(csvFile),
  async function* decode(chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
    const rest = decoder.decode();
    if (rest) yield rest;
  },
  parse({ columns: true, delimiter, quote, from_line: fromLine }),
  async (parsed: AsyncIterable<unknown>) => {
    for await (const _ of parsed) records++;
  },
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({
    records,
    cpuMicros: cpu.user + cpu.system,
    wallMs,
    maxRssKb: process.resourceUsage().maxRSS,
    rssBeforeKb: Math.round(rssBeforeKb),
  })}\n`,
);
