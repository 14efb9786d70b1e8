/**
 * Peak RSS and CPU of writing a run's outcomes for a person (issue 31 point 3): `excel`
 * (outcomes.xlsx) and `excel-csv` (outcomes.excel.csv), each from an outcomes.ndjson of
 * BENCH_ROWS outcomes, in a child process of its own (peak RSS from the kernel at its end, tsx
 * included), formats alternated. Memory must stay flat: compare BENCH_ROWS=100000 with 1000000.
 *
 *   npm run bench:reports                        # 1,000,000 outcomes, 2 rounds
 *   BENCH_ROWS=100000 BENCH_RUNS=3 npm run bench:reports
 */

import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ExtraReport, writeExtraReport } from '../../src/report-files/extra-report.js';
import { OUTCOME_COLUMNS, outcomeJsonLine } from '../../src/report-files/file-sink.js';
import { closeStream, write } from '../../src/report-files/stream-write.js';

const RUN_ID = 'bench-reports-20261128T000000Z-abcdef';

/** An outcomes.ndjson as a run of `rows` records writes it: 1 in 50 rejected, a third negative. */
async function writeNdjson(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  let piece = '';
  for (let i = 0; i < rows; i++) {
    const rejected = i % 50 === 0;
    piece += outcomeJsonLine(
      {
        file: '/data/exports/umsaetze-2026-02.csv',
        line: i + 2,
        externalId: `TX-${1_000_000_000_000 + i}`,
        outcome: rejected ? 'rejected' : 'created',
        ...(rejected
          ? {
              code: 'INVALID_RECORD',
              message: 'bookingDate (column "Buchungsdatum"): "31.02.2026" is not a calendar date',
            }
          : { serviceId: 10_000_000 + i }),
        amount: `${i % 3 === 0 ? '-' : ''}${(i % 100_000) + 1}.${String(i % 100).padStart(2, '0')}`,
      },
      RUN_ID,
    );
    if (piece.length > 65_536) {
      await write(out, piece);
      piece = '';
    }
  }
  await write(out, piece);
  await closeStream(out);
}

/** The child: one format written, its figures as one JSON line. */
async function child(format: ExtraReport, dir: string): Promise<void> {
  const path = await writeExtraReport(format, dir, join(dir, 'outcomes.ndjson'), RUN_ID, OUTCOME_COLUMNS);
  const cpu = process.cpuUsage();
  process.stdout.write(
    `${JSON.stringify({
      format,
      bytes: statSync(path).size,
      cpuS: (cpu.user + cpu.system) / 1e6,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
    })}\n`,
  );
}

function runChild(
  format: ExtraReport,
  dir: string,
): Promise<{ cpuS: number; peakRssMiB: number; bytes: number }> {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, ['--import', 'tsx', self, 'child', format, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (b: Buffer) => {
    out += b.toString();
  });
  return new Promise((resolve, reject) =>
    proc.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`)),
    ),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
  const runs = Number(process.env.BENCH_RUNS ?? 2);
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-bench-reports-'));
  try {
    await writeNdjson(join(dir, 'outcomes.ndjson'), rows);
    const seen: Record<string, { cpuS: number[]; peakRssMiB: number[]; bytes: number }> = {};
    for (let round = 0; round < runs; round++)
      for (const format of round % 2 === 0
        ? (['excel', 'excel-csv'] as const)
        : (['excel-csv', 'excel'] as const)) {
        const r = await runChild(format, dir);
        seen[format] ??= { cpuS: [], peakRssMiB: [], bytes: r.bytes };
        const s = seen[format];
        s.cpuS.push(r.cpuS);
        s.peakRssMiB.push(r.peakRssMiB);
      }
    const ndjsonMb = statSync(join(dir, 'outcomes.ndjson')).size / 1e6;
    console.log(`${rows} outcomes (outcomes.ndjson ${ndjsonMb.toFixed(0)} MB), ${runs} runs each`);
    for (const [format, s] of Object.entries(seen))
      console.log(
        `${format}: peak RSS median ${median(s.peakRssMiB).toFixed(0)} MiB [${s.peakRssMiB.map((v) => v.toFixed(0)).join(', ')}], CPU median ${median(s.cpuS).toFixed(1)} s [${s.cpuS.map((v) => v.toFixed(1)).join(', ')}], file ${(s.bytes / 1e6).toFixed(0)} MB`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'child') await child(process.argv[3] as ExtraReport, process.argv[4] as string);
else await main();
