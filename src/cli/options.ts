import { InvalidArgumentError, Option } from 'commander';

/** A whole number >= 1 (counts, limits, concurrency). */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return n;
}

/** pino's levels, in order of severity; `--log-level` accepts only these (a typo is exit 2, not "info"). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** `--log-format` of the commands that print a result (sync, reconcile): text unless asked for JSON. */
export function logFormatOption(): Option {
  return new Option(
    '--log-format <format>',
    'json: pino JSON lines on stdout; text: readable lines on stderr',
  ).choices(['json', 'text']);
}

/** The `--log-level` option of every command that logs. */
export function logLevelOption(): Option {
  return new Option('--log-level <level>', 'how much to log').choices(LOG_LEVELS).default('info');
}
