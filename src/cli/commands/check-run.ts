import { type CheckOptions, checkFeed, type FeedCheck } from '../../check/check-feed.js';
import { checkText } from '../../check/report-text.js';
import { ConfigError } from '../../config/errors.js';
import { loadFeedFile } from '../../config/load-feed.js';
import { systemClock } from '../../time/clock.js';
import { EXIT, type ExitCode, runExitCode, worstExit } from '../exit-codes.js';
import { cliLogger } from '../log-output.js';

export interface CheckFlags {
  show: number;
  json: boolean;
}

/** One feed file's check: what was found, or why the feed file itself could not be loaded. */
type Checked = { file: string; exitCode: ExitCode } & ({ check: FeedCheck } | { error: string });

/** A check's exit code as sync's for the same run: the worst stop of its files, else rejected or failed records. */
function exitOf(check: FeedCheck): ExitCode {
  const worst = [...check.stops].sort((a, b) => b.exitCode - a.exitCode)[0];
  return runExitCode({ stopReason: worst, counts: check.counts });
}

/**
 * Checks each feed file in turn: a feed that cannot be loaded or read is that feed's failure
 * alone, the others are still checked; the exit code is the worst of them, as sync's.
 */
export async function check(feedFiles: readonly string[], flags: CheckFlags): Promise<ExitCode> {
  const options: CheckOptions = {
    show: flags.show,
    examples: 3,
    env: process.env,
    clock: systemClock,
    // What the screen says is the report; the run's own log lines would only repeat its stops.
    logger: cliLogger('text', 'silent'),
  };
  const results: Checked[] = [];
  for (const file of feedFiles) {
    let checked: Checked;
    try {
      const loaded = await loadFeedFile(file);
      const found = await checkFeed(loaded, options);
      checked = { file, check: found, exitCode: exitOf(found) };
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      checked = { file, error: error.message, exitCode: EXIT.INVALID_CONFIG };
    }
    results.push(checked);
    if (flags.json) continue;
    if ('error' in checked) process.stderr.write(`erp-bridge: ${checked.error}\n`);
    else process.stdout.write(`${checkText(checked.check)}  exit ${checked.exitCode}\n`);
  }
  const exitCode = worstExit(results.map((r) => r.exitCode));
  if (flags.json) process.stdout.write(`${JSON.stringify({ exitCode, feeds: results }, null, 2)}\n`);
  return exitCode;
}
