import { ConfigError } from '../config/errors.js';
import { secrets } from '../logging/secret-scrubber.js';
import { LocationError } from '../sources/locations/location-error.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/**
 * What an error that reached the top of the CLI means for the user (the parser's own ends are
 * program.ts's parserExit): the line to print and the exit code. Settings the user can fix are 2;
 * anything else is unexpected (1), so a script never reads a crash as "fix your configuration".
 */
export function crashReport(error: unknown): { line: string; code: ExitCode } {
  // The message may quote a server (Redis, the authorization server): no secret in any encoding.
  const message = secrets.scrub(error instanceof Error ? error.message : String(error));
  if (error instanceof ConfigError) return { line: `erp-bridge: ${message}\n`, code: EXIT.INVALID_CONFIG };
  // A feed's export location refused or failed: said as it is, never as a bug (the runs stop the
  // feed with it; this is for a command that met it outside a run).
  if (error instanceof LocationError)
    return { line: `erp-bridge: ${message} (${error.code})\n`, code: error.exitCode };
  return { line: `erp-bridge: unexpected error: ${message}\n`, code: EXIT.UNEXPECTED_ERROR };
}
