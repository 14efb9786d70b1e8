import { type Command, InvalidArgumentError, Option } from 'commander';
import { OUTCOMES, type Outcome } from '../../sync/outcome.js';
import type { ReportFlags } from './report-run.js';

/** `--outcome rejected,failed`: the outcomes to keep, each checked against the known ones. */
function outcomeList(value: string): ReadonlySet<Outcome> {
  const wanted = value.split(',').map((o) => o.trim());
  const unknown = wanted.filter((o) => !(OUTCOMES as readonly string[]).includes(o));
  if (unknown.length > 0 || wanted.length === 0)
    throw new InvalidArgumentError(`expected a comma-separated list of ${OUTCOMES.join(', ')}`);
  return new Set(wanted as Outcome[]);
}

/** `erp-bridge report <runId>`: a fleet run's report, in the same model as `sync` writes. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      "write a fleet run's report: json (summary), csv or ndjson (one line per record); or a fleet reconcile's (its lines but the equal ones)",
    )
    .argument('<runId>', 'a run id from erp-bridge runs, or a reconcile id from erp-bridge reconcile --fleet')
    .addOption(
      new Option(
        '--format <format>',
        'csv, json, ndjson, excel-csv (a CSV for German Excel) or excel (a workbook: needs --output)',
      )
        .choices(['csv', 'json', 'ndjson', 'excel-csv', 'excel'])
        .default('csv'),
    )
    .option('--output <file>', 'write to this file instead of stdout')
    .option(
      '--outcome <list>',
      'csv/ndjson: only records with these outcomes, e.g. rejected,failed',
      outcomeList,
    )
    .action(async (runId: string, flags: ReportFlags) => {
      // Loaded on use: the fleet's modules (BullMQ, Redis, the admin server) stay out of other commands.
      const { report } = await import('./report-run.js');
      process.exitCode = await report(runId, flags);
    });
}
