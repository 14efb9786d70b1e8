import { ConfigError } from '../../config/errors.js';
import { type LoadedFeed, loadFeedFiles } from '../../config/load-feed.js';
import { loadPartnerConfig } from '../../config/partner-env.js';
import { MemoryGate } from '../../gate/memory-gate.js';
import { FileIdentityStore } from '../../in-process/identity-file-store.js';
import { type ReconcileDeps, reconcileFeed } from '../../in-process/reconcile-runner.js';
import { runFeed } from '../../in-process/runner.js';
import { checkReconcilable } from '../../sync/run/reconcile-run.js';
import { systemClock } from '../../time/clock.js';
import { countsText } from '../counts-text.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { cliLogger, type LogFormat } from '../log-output.js';
import { reconcileExitCode, screen } from '../reconcile-screen.js';
import { ndjsonOutcomes, unchangedText } from '../repair-text.js';
import { checkReportDir } from '../report-dir.js';
import { connectService } from '../service.js';

export interface ReconcileFlags {
  repair: boolean;
  reportDir: string;
  logFormat?: LogFormat;
  logLevel: string;
}

export async function reconcile(feedFiles: string[], flags: ReconcileFlags): Promise<ExitCode> {
  const format: LogFormat = flags.logFormat ?? 'text';
  const logger = cliLogger(format, flags.logLevel);
  let feeds: LoadedFeed[];
  try {
    loadPartnerConfig(process.env);
    feeds = await loadFeedFiles(feedFiles);
    checkReconcilable(feeds);
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
      print(screen(run.summary, `report: ${run.files.dir}`));
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
        print(
          `  repair: ${repaired.summary.state}: ${countsText(repaired.summary)}\n${await unchangedText(loaded.feed.kind, ndjsonOutcomes(repaired.files.ndjson))}  repair report: ${repaired.files.dir}\n`,
        );
        run = await reconcileFeed(loaded, deps);
        print(`after the repair:\n${screen(run.summary, `report: ${run.files.dir}`)}`);
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
