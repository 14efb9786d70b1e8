import { ConfigError } from '../../config/errors.js';
import { type LoadedFeed, loadFeedFiles } from '../../config/load-feed.js';
import { loadPartnerConfig } from '../../config/partner-env.js';
import { MemoryGate } from '../../gate/memory-gate.js';
import { FileIdentityStore } from '../../in-process/identity-file-store.js';
import {
  notReconcilable,
  type ReconcileDeps,
  type ReconcileRun,
  reconcileFeed,
} from '../../in-process/reconcile-runner.js';
import { runFeed } from '../../in-process/runner.js';
import type { ReconcileLine } from '../../sync/reconcile/reconcile.js';
import type { ReconcileSummary } from '../../sync/reconcile/summary.js';
import { systemClock } from '../../time/clock.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { cliLogger, type LogFormat } from '../log-output.js';
import { checkReportDir } from '../report-dir.js';
import { connectService } from '../service.js';

export interface ReconcileFlags {
  repair: boolean;
  reportDir: string;
  logFormat?: LogFormat;
  logLevel: string;
}

/** The exit code of one reconcile: its stop's, else 4 when anything is missing or different. */
export function reconcileExitCode(summary: ReconcileSummary): ExitCode {
  if (summary.stopReason) return summary.stopReason.exitCode;
  return summary.state === 'equal' ? EXIT.OK : EXIT.DIFFERENCES;
}

export async function reconcile(feedFiles: string[], flags: ReconcileFlags): Promise<ExitCode> {
  const format: LogFormat = flags.logFormat ?? 'text';
  const logger = cliLogger(format, flags.logLevel);
  let feeds: LoadedFeed[];
  try {
    loadPartnerConfig(process.env);
    feeds = await loadFeedFiles(feedFiles);
    for (const { feed } of feeds) {
      const why = notReconcilable(feed);
      if (why) throw new ConfigError(why);
    }
    await checkReportDir(flags.reportDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`erp-bridge: ${error.message}\n`);
    return EXIT.INVALID_CONFIG;
  }
  const gate = new MemoryGate(systemClock);
  const service = await connectService(process.env, gate, systemClock, logger, { embeddedSandbox: false });
  const deps: ReconcileDeps = {
    client: service.client,
    clock: systemClock,
    logger,
    reportDir: flags.reportDir,
    target: service.target,
  };
  const print = (text: string) => {
    if (format === 'text') process.stdout.write(text);
  };
  let code: ExitCode = EXIT.OK;
  try {
    // One feed after the other: each compares one scope, and a repair must see its own feed settled.
    for (const loaded of feeds) {
      let run = await reconcileFeed(loaded, deps);
      print(screen(run));
      if (flags.repair && run.summary.state === 'differences') {
        const repaired = await runFeed(loaded, false, {
          client: service.client,
          clock: systemClock,
          logger,
          gate,
          reportDir: flags.reportDir,
          target: service.target,
          identity: { store: new FileIdentityStore(flags.reportDir), accept: false },
          onlyLines: run.repair,
        });
        const c = repaired.summary.counts;
        print(
          `  repair: ${repaired.summary.state}: ${c.created} created, ${c.updated} updated, ${c.skipped} skipped, ${c.rejected} rejected, ${c.failed} failed\n  repair report: ${repaired.files.dir}\n`,
        );
        run = await reconcileFeed(loaded, deps);
        print(`after the repair:\n${screen(run)}`);
      }
      if (format === 'json')
        logger.info({ summary: run.summary, reportDir: run.files.dir }, 'reconcile finished');
      code = Math.max(code, reconcileExitCode(run.summary)) as ExitCode;
    }
    return code;
  } finally {
    await service.close();
  }
}

const SHOWN = 10;

/** The one-screen summary of a reconcile: verdict counts, both control totals, the first differences. */
function screen({ summary: s, files }: ReconcileRun): string {
  const c = s.counts;
  const total = (t: { records: number; amount?: string }) =>
    `${t.records} records${t.amount === undefined ? '' : `, sum ${t.amount}`}`;
  const lines = [
    `${s.feed}: ${s.state}${s.scope ? ` (${s.scope}, ${s.target ?? ''})` : ''}${s.stopReason ? `: ${s.stopReason.message}` : ''}`,
    `  ${c.equal} equal, ${c.missing} missing, ${c.different} different, ${c.extra} extra in the service; ${c.duplicate} duplicate and ${c.rejected} invalid rows in the exports`,
    `  exports: ${total(s.controlTotals.source)}; service: ${total(s.controlTotals.service)}${s.heldWithoutExternalId > 0 ? ` (${s.heldWithoutExternalId} without externalId)` : ''}`,
    ...s.firstDifferences.slice(0, SHOWN).map(difference),
    ...(c.missing + c.different > SHOWN
      ? [`  ... ${c.missing + c.different - SHOWN} more in the report`]
      : []),
    `  report: ${files.dir}`,
  ];
  return `${lines.join('\n')}\n`;
}

function difference(line: ReconcileLine): string {
  const at = `${line.file}:${line.line} ${line.externalId ?? ''}`;
  if (line.verdict === 'missing') return `  missing: ${at}`;
  const fields = (line.fields ?? [])
    .map((f) => `${f.field} ${JSON.stringify(f.source)} (service ${JSON.stringify(f.service)})`)
    .join(', ');
  return `  different: ${at}: ${fields || line.message || ''}`;
}
