import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { csvLine } from '../../reporting/csv.js';
import { OUTCOME_COLUMNS, outcomeCsvLine } from '../../reporting/file-sink.js';
import { OUTCOMES, type Outcome } from '../../sync/outcome.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { withFleet } from '../fleet.js';
import { cliLogger } from '../log-output.js';

interface ReportFlags {
  format: 'csv' | 'json' | 'ndjson';
  output?: string;
  outcome?: ReadonlySet<Outcome>;
}

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
    .description("write a fleet run's report: json (summary), csv or ndjson (one line per record)")
    .argument('<runId>', 'a run id from erp-bridge runs')
    .addOption(
      new Option('--format <format>', 'csv, json or ndjson')
        .choices(['csv', 'json', 'ndjson'])
        .default('csv'),
    )
    .option('--output <file>', 'write to this file instead of stdout')
    .option(
      '--outcome <list>',
      'csv/ndjson: only records with these outcomes, e.g. rejected,failed',
      outcomeList,
    )
    .action(async (runId: string, flags: ReportFlags) => {
      process.exitCode = await report(runId, flags);
    });
}

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve) => (out.write(text) ? resolve() : out.once('drain', () => resolve())));
}

async function report(runId: string, flags: ReportFlags): Promise<ExitCode> {
  return withFleet(cliLogger('text', 'warn'), 'report', async (fleet) => {
    const meta = await fleet.store.meta(runId);
    if (!meta) {
      process.stderr.write(
        `erp-bridge: no run ${runId} in Redis (expired or never started); see erp-bridge runs\n`,
      );
      return EXIT.INVALID_CONFIG;
    }
    const out: Writable = flags.output ? createWriteStream(flags.output) : process.stdout;
    if (flags.format === 'json') {
      const summary = (await fleet.store.summary(runId)) ?? { ...meta, state: 'running' };
      await write(out, `${JSON.stringify(summary, null, 2)}\n`);
    } else {
      if (flags.format === 'csv') await write(out, csvLine(OUTCOME_COLUMNS));
      for await (const o of fleet.store.outcomes(runId)) {
        if (flags.outcome && !flags.outcome.has(o.outcome)) continue;
        await write(out, flags.format === 'csv' ? outcomeCsvLine(o) : `${JSON.stringify(o)}\n`);
      }
    }
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
    return EXIT.OK;
  });
}
