import { createInterface } from 'node:readline';
import type { SourceItem } from '../row.js';

/**
 * Streams JSON Lines: one object per line; empty lines are skipped. Column references are
 * property paths ("amount", "customer.name") or 1-based positions of the object's keys.
 * Scalars are handed to the mapper as text so they get the same strict conversion as CSV cells.
 * JSON.parse has already turned numbers into doubles: an amount with more than 15 significant
 * digits should be written as a JSON string to keep every digit.
 */
export async function* readJsonl(file: string, text: NodeJS.ReadableStream): AsyncGenerator<SourceItem> {
  const lines = createInterface({ input: text, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line++;
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
