import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../logging/logger.js';

export type LogFormat = 'json' | 'text';

const HIDDEN = new Set(['level', 'time', 'msg', 'name', 'pid', 'hostname']);

/** A destination that turns pino's JSON lines into short text lines for people (stderr). */
function textDestination(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          const fields = Object.entries(entry)
            .filter(([k]) => !HIDDEN.has(k))
            .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
            .join(' ');
          out.write(
            `${String(entry.level ?? '')
              .toUpperCase()
              .padEnd(5)} ${entry.msg ?? ''}${fields ? `  ${fields}` : ''}\n`,
          );
        } catch {
          out.write(`${line}\n`);
        }
      }
      done();
    },
  });
}

/** JSON lines on stdout with --log-format json; readable text lines on stderr otherwise. */
export function cliLogger(format: LogFormat, level: string): Logger {
  const validLevel = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)
    ? level
    : 'info';
  return createLogger({
    name: 'erp-bridge',
    level: validLevel as 'info',
    ...(format === 'text' ? { destination: textDestination(process.stderr) } : {}),
  });
}
