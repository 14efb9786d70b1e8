import type { Logger } from 'pino';
import { createLogger } from '../../src/logging/logger.js';

export interface CapturedLogs {
  logger: Logger;
  /** Raw JSON lines as pino wrote them (what a log shipper would see). */
  lines: string[];
  /** The lines parsed. */
  entries(): Array<Record<string, unknown>>;
}

/** A debug-level logger built by createLogger (so with its redaction) whose output is kept in memory. */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });
  return {
    logger,
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
