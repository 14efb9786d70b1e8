import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { openText } from '../../src/sources/decode.js';
import { MT940_CELLS } from '../../src/sources/formats/mt940-cells.js';
import { Mt940Source } from '../../src/sources/formats/mt940-source.js';
import { readSource } from '../../src/sources/formats/registry.js';
import type { SourceEncoding } from '../../src/sources/formats/shared-keys.js';

/** What the mt940 reader makes of a text, item by item (tests of the reader). */
export type Cells = Partial<Record<(typeof MT940_CELLS)[number], string>>;
export type Read =
  | { kind: 'row'; line: number; cells: Cells; leftOut?: string; text: string }
  | { kind: 'problem'; line: number; problem: string };

export function source(keys: Record<string, unknown> = {}) {
  return Mt940Source.parse({ format: 'mt940', path: 'x', ...keys });
}

export async function readItems(
  text: NodeJS.ReadableStream,
  keys: Record<string, unknown> = {},
): Promise<Read[]> {
  const reading = readSource('mt940', source(keys), 'statement.sta', text);
  const out: Read[] = [];
  for await (const batch of reading.batches) {
    expect(batch.length).toBeGreaterThan(0);
    for (const item of batch) {
      if (item.kind === 'problem') {
        out.push({ kind: 'problem', line: item.problem.line, problem: item.problem.problem });
        continue;
      }
      const cells: Cells = {};
      for (const name of MT940_CELLS) {
        const value = item.row.cell(name);
        if (value !== undefined) cells[name] = value;
      }
      out.push({
        kind: 'row',
        line: item.row.line,
        cells,
        text: item.row.text(),
        ...(item.row.leftOut === undefined ? {} : { leftOut: item.row.leftOut }),
      });
    }
  }
  return out;
}

/** A file through the shared decoding (encoding: auto unless given), as a sync reads it. */
export const readFile = (
  path: string,
  encoding: SourceEncoding = 'auto',
  keys: Record<string, unknown> = {},
) => readItems(openText(path, encoding).text, keys);

export const rows = (items: Read[]) => items.flatMap((item) => (item.kind === 'row' ? [item] : []));
export const readText = (text: string, keys: Record<string, unknown> = {}) =>
  readItems(Readable.from([text]), keys);

/** A made-up MT942 interim report: a floor limit, a date-time, one entry (line 6), no booked balances. */
export const INTERIM_REPORT = [
  ':20:INTERIM1',
  ':25:64459990/0004417082',
  ':28C:1',
  ':34F:EUR0,',
  ':13D:2602041015+0100',
  ':61:2602040204DR0,42NMSCNONREF',
  ':86:105?00LASTSCHRIFT?20SVWZ+TEST',
  ':90D:1EUR0,42',
  '-',
  '',
];
