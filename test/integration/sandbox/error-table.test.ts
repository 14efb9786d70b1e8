import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '../../../src/contract/error-table.js';
import { withSandbox } from '../../support/sandbox.js';
import type { ErrorRow } from './error-rows/types.js';

const here = dirname(fileURLToPath(import.meta.url));

async function loadRows(): Promise<ErrorRow[]> {
  const files = readdirSync(join(here, 'error-rows')).filter((f) => f.endsWith('.rows.ts'));
  const rows: ErrorRow[] = [];
  for (const file of files) {
    // Every *.rows.ts file is picked up, so a new row file cannot be forgotten.
    const mod = (await import(/* @vite-ignore */ join(here, 'error-rows', file))) as { rows: ErrorRow[] };
    rows.push(...mod.rows);
  }
  return rows;
}

const rows = await loadRows();
const key = (r: { operation: string; status: number; error: string }) =>
  `${r.operation} | ${r.status} | ${r.error}`;

// The table is the project's contract data (src/contract/error-table.ts); `npm run spec:check`
// compares it with the specification's text where that is at hand.
describe("the spec's error table, row by row", () => {
  it('has at least one provocation for every row of the contract table', () => {
    const spec = ERROR_TABLE;
    expect(spec.length).toBeGreaterThanOrEqual(45);
    const covered = new Set(rows.map((r) => key(r.spec)));
    const missing = spec.filter((r) => !covered.has(key(r))).map(key);
    expect(missing).toEqual([]);
  });

  it.each(rows.map((row) => [`${key(row.spec)} — ${row.how}`, row] as const))('%s', async (_name, row) => {
    const sb = await withSandbox(row.options);
    try {
      const res = await row.provoke(sb);
      expect(res.status).toBe(row.spec.status);
      const expected = row.expectError ?? row.spec.error;
      expect(res.body).toMatchObject({ error: expected });
      expect(typeof (res.body as { timestamp?: unknown }).timestamp).toBe('number');
      expect(typeof (res.body as { message?: unknown }).message).toBe('string');
    } finally {
      await sb.close();
    }
  });
});
