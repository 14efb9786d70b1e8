import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { csvLine } from '../../report-files/csv.js';
import { writeOutcomesExcelCsv } from '../../report-files/extra-report.js';
import { OUTCOME_COLUMNS, outcomeCsvLine, outcomeJsonLine } from '../../report-files/file-sink.js';
import {
  RECONCILE_COLUMNS,
  reconcileCsvLine,
  reconcileJsonLine,
} from '../../report-files/reconcile-files.js';
import { write } from '../../report-files/stream-write.js';
import type { Outcome, RecordOutcome } from '../../sync/outcome.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type FleetWiring, withFleet } from '../fleet.js';
import { cliLogger } from '../log-output.js';

export interface ReportFlags {
  format: 'csv' | 'json' | 'ndjson' | 'excel-csv' | 'excel';
  output?: string;
  outcome?: ReadonlySet<Outcome>;
}

export async function report(runId: string, flags: ReportFlags): Promise<ExitCode> {
  // A workbook is bytes for a file, not for a screen: refused before Redis is asked anything.
  if (flags.format === 'excel' && !flags.output) {
    process.stderr.write(
      process.stdout.isTTY
        ? 'erp-bridge: --format excel writes a workbook (binary), not text for the terminal: give --output <file>.xlsx\n'
        : 'erp-bridge: --format excel needs --output <file>.xlsx (a workbook is written to a file)\n',
    );
    return EXIT.INVALID_CONFIG;
  }
  return withFleet(cliLogger('text', 'warn'), 'report', async (fleet) => {
    const meta = await fleet.store.meta(runId);
    // Not a run: a fleet reconcile's id (`<feed>-reconcile-<time>-<random>`), kept apart in Redis.
    if (!meta) return reconcileReport(fleet, runId, flags);
    if (flags.format === 'excel') {
      const { writeOutcomesXlsx } = await import('../../report-files/outcome-xlsx.js');
      await writeOutcomesXlsx(
        flags.output as string,
        kept(fleet.store.outcomesInOrder(runId), flags.outcome),
        runId,
      );
      return EXIT.OK;
    }
    const out: Writable = flags.output ? createWriteStream(flags.output) : process.stdout;
    if (flags.format === 'excel-csv')
      await writeOutcomesExcelCsv(
        out,
        kept(fleet.store.outcomesInOrder(runId), flags.outcome),
        runId,
        OUTCOME_COLUMNS,
      );
    else if (flags.format === 'json') {
      const summary = (await fleet.store.summary(runId)) ?? { ...meta, state: 'running' };
      await write(out, `${JSON.stringify(summary, null, 2)}\n`);
    } else {
      if (flags.format === 'csv') await write(out, csvLine(OUTCOME_COLUMNS));
      // In line order, as `sync` writes outcomes.csv; sorted through a temporary spill file.
      for await (const o of fleet.store.outcomesInOrder(runId)) {
        if (flags.outcome && !flags.outcome.has(o.outcome)) continue;
        await write(out, flags.format === 'csv' ? outcomeCsvLine(o, runId) : outcomeJsonLine(o, runId));
      }
    }
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
    return EXIT.OK;
  });
}

/** The outcomes whose outcome `only` holds (all without it). */
async function* kept(outcomes: AsyncIterable<RecordOutcome>, only: ReadonlySet<Outcome> | undefined) {
  for await (const o of outcomes) if (!only || only.has(o.outcome)) yield o;
}

/**
 * A fleet reconcile's report: json, its summary; csv/ndjson, its stored lines (every line but the
 * equal ones) in the columns of reconcile.csv. `--outcome` filters run outcomes, not verdicts.
 */
async function reconcileReport(
  fleet: FleetWiring,
  reconcileId: string,
  flags: ReportFlags,
): Promise<ExitCode> {
  const summary = await fleet.reconciles.summary(reconcileId);
  if (!summary) {
    process.stderr.write(
      `erp-bridge: no run or finished reconcile ${reconcileId} in Redis (expired, never started or still running); see erp-bridge runs\n`,
    );
    return EXIT.INVALID_CONFIG;
  }
  if (flags.outcome) {
    process.stderr.write(
      `erp-bridge: ${reconcileId} is a reconcile: --outcome filters a run's outcomes; a reconcile's report holds its missing, different, extra, duplicate and invalid lines\n`,
    );
    return EXIT.INVALID_CONFIG;
  }
  if (flags.format === 'excel' || flags.format === 'excel-csv') {
    process.stderr.write(
      `erp-bridge: ${reconcileId} is a reconcile: --format ${flags.format} writes a run's outcomes; a reconcile's report is csv, json or ndjson\n`,
    );
    return EXIT.INVALID_CONFIG;
  }
  const out: Writable = flags.output ? createWriteStream(flags.output) : process.stdout;
  if (flags.format === 'json') await write(out, `${JSON.stringify(summary, null, 2)}\n`);
  else {
    if (flags.format === 'csv') await write(out, csvLine(RECONCILE_COLUMNS));
    for await (const line of fleet.reconciles.lines(reconcileId))
      await write(
        out,
        flags.format === 'csv' ? reconcileCsvLine(line, reconcileId) : reconcileJsonLine(line, reconcileId),
      );
  }
  if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  return EXIT.OK;
}
