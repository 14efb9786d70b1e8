import type { SourceItem } from '../row.js';
import { longerThanBytes } from './text-bytes.js';

/**
 * Streams JSON Lines: one object per line; empty lines are skipped. Column references are
 * property paths ("amount", "customer.name") or 1-based positions of the object's keys.
 * Scalars are handed to the mapper as text so they get the same strict conversion as CSV cells.
 * JSON.parse has already turned numbers into doubles: an amount with more than 15 significant
 * digits should be written as a JSON string to keep every digit.
 */
export async function* readJsonl(
  file: string,
  text: NodeJS.ReadableStream,
  maxRowBytes: number,
): AsyncGenerator<SourceItem> {
  let line = 0;
  for await (const raw of cappedLines(text, maxRowBytes)) {
    line++;
    if (raw === undefined) {
      yield {
        kind: 'problem',
        problem: {
          file,
          line,
          problem: `the line is longer than maxRowBytes (${maxRowBytes} bytes); it is rejected, reading goes on at line ${line + 1}`,
        },
      };
      continue;
    }
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      yield {
        kind: 'problem',
        problem: { file, line, problem: `not valid JSON: ${(error as Error).message}` },
      };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { kind: 'problem', problem: { file, line, problem: 'expected a JSON object on this line' } };
      continue;
    }
    const object = value as Record<string, unknown>;
    yield {
      kind: 'row',
      row: {
        file,
        line,
        cell: (ref) =>
          scalarText(
            typeof ref === 'number' ? object[Object.keys(object)[ref - 1] ?? ''] : lookup(object, ref),
          ),
        text: () => trimmed,
      },
    };
  }
}

function lookup(object: Record<string, unknown>, path: string): unknown {
  if (path in object) return object[path];
  let current: unknown = object;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function scalarText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The text's lines (ended by LF, CRLF or CR, as readline splits them), or undefined for a line
 * longer than `max` bytes: such a line is not held past the cap, only its end is looked for.
 */
async function* cappedLines(text: NodeJS.ReadableStream, max: number): AsyncGenerator<string | undefined> {
  let pending = '';
  let over = false;
  let afterCr = false;
  for await (const chunk of text) {
    const part = String(chunk);
    let at = afterCr && part.startsWith('\n') ? 1 : 0;
    afterCr = false;
    const breaks = /\r\n|\r|\n/g;
    breaks.lastIndex = at;
    for (let found = breaks.exec(part); found; found = breaks.exec(part)) {
      const line = pending + part.slice(at, found.index);
      yield over || longerThanBytes(line, max) ? undefined : line;
      pending = '';
      over = false;
      at = found.index + found[0].length;
      // A CR that ends the chunk may be the first half of a CRLF split across two chunks.
      if (found[0] === '\r' && at === part.length) afterCr = true;
    }
    if (over) continue;
    pending += part.slice(at);
    if (pending.length > max) {
      over = true;
      pending = '';
    }
  }
  if (over) yield undefined;
  else if (pending !== '') yield longerThanBytes(pending, max) ? undefined : pending;
}
