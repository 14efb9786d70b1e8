import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

const world = fleetTestWorld({ latency: { ms: 5, jitterMs: 0 } });

describe('the fleet: a workbook whose first sheet is hidden', () => {
  it('reads the first sheet shown, and the summary names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-fleet-xlsx-'));
    const header = rowOf(1, ['ID', 'Date', 'Amount']);
    const row = (r: number, id: string) => rowOf(r, [id, '2024-01-31', '1.00']);
    writeFileSync(
      join(dir, 'export.xlsx'),
      xlsxOf({
        sheets: [
          { name: 'Lookup', rows: header + row(2, 'fleet-hidden-1'), state: 'veryHidden' },
          { name: 'Bookings', rows: header + row(2, 'fleet-shown-1') + row(3, 'fleet-shown-2') },
        ],
      }),
    );
    writeFileSync(
      join(dir, 'feed.yaml'),
      [
        'name: fleet-xlsx',
        'accountId: 1001',
        'kind: transactions',
        'source: {path: export.xlsx, format: xlsx}',
        'bankAccount: {externalId: main, accountName: Main, bankName: Bank}',
        'mapping: {externalId: ID, bookingDate: Date, amount: Amount}',
        '',
      ].join('\n'),
    );
    const fleet = world.start();
    fleet.worker(2);
    const [enqueued] = await fleet.enqueue(join(dir, 'feed.yaml'));
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.counts).toMatchObject({ created: 2, rejected: 0 });
    expect(summary.files).toEqual([expect.objectContaining({ sheet: 'Bookings', records: 2 })]);
    const ids = world.transactions(1001).map((t) => t.externalId);
    expect(ids).toEqual(expect.arrayContaining(['fleet-shown-1', 'fleet-shown-2']));
    expect(ids).not.toContain('fleet-hidden-1');
  });
});
