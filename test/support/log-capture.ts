import type { Logger } from 'pino';
import { createLogger } from '../../src/logging/logger.js';
import { parseLogLine } from './log-line.js';

export interface CapturedLogs {
  logger: Logger;
  /** Raw JSON lines as pino wrote them (what a log shipper would see). */
  lines: string[];
  /** The lines parsed; throws on a line that carries a key twice. */
  entries(): Array<Record<string, unknown>>;
}

/** A debug-level logger built by createLogger (so with its redaction) whose output is kept in memory. */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });
  return {
    logger,
    lines,
    entries: () => lines.map(parseLogLine),
  };
}
