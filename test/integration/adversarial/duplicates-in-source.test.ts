import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import { expectNoDuplicates } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';
import { invoiceLine, invoicesFeed } from './duplicate-feeds.js';

const ACCOUNT = 1001;
/** Account 1001's seed holds one read-only ERP invoice. */
const SEEDED_INVOICES = 1;

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const at = (outcomes: readonly RecordOutcome[], file: string, line: number) =>
  outcomes.find((o) => o.file.endsWith(file) && o.line === line);

describe('issue 18 case 2: the same externalId twice in one run', () => {
  it('case 2: two chunks of one file with the same invoice externalId at concurrency 2: one created, the other DUPLICATE_IN_SOURCE naming the first line', async () => {
    // 1,200 invoices: line 1,105 (second chunk) repeats line 2's externalId with other content.
    const lines = Array.from({ length: 1_200 }, (_, i) => invoiceLine(`INV-${i + 1}`, i + 1));
    lines[1_104] = invoiceLine('INV-2', 9_999, '123.45');
    const feed = invoicesFeed({ 'march.jsonl': lines }, 'march.jsonl', 2);
    h = await syncHarness();
    const first = await h.run(feed);
    expect(first.summary.counts).toMatchObject({ created: 1_199, rejected: 1, failed: 0 });
    expect(at(first.outcomes, 'march.jsonl', 2)).toMatchObject({ outcome: 'created' });
    const dup = at(first.outcomes, 'march.jsonl', 1_105);
    expect(dup).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE', externalId: 'INV-2' });
    expect(dup?.message).toMatch(/march\.jsonl:2 /);
    const stored = await h.stored(ACCOUNT, 'invoices');
    expectNoDuplicates(stored);
    expect(stored).toHaveLength(1_199 + SEEDED_INVOICES);

    // case 2, later runs: the first is found once and left alone, never AMBIGUOUS_TARGET.
    const again = await h.run(feed);
    expect(again.outcomes.filter((o) => o.code === 'AMBIGUOUS_TARGET')).toEqual([]);
    expect(at(again.outcomes, 'march.jsonl', 2)).toMatchObject({ outcome: 'skipped' });
    expect(at(again.outcomes, 'march.jsonl', 1_105)).toMatchObject({ code: 'DUPLICATE_IN_SOURCE' });
    expect(again.summary.counts).toMatchObject({ created: 0, failed: 0 });
  });

  it('case 2: two overlapping monthly invoice files in one run: each invoice created once, the overlap skipped as the same record', async () => {
    const all = Array.from({ length: 1_000 }, (_, i) => invoiceLine(`INV-${i + 1}`, i + 1));
    // jan holds invoices 1-600, feb 401-1000: 200 rows in both, identical.
    const feed = invoicesFeed(
      { 'a-jan.jsonl': all.slice(0, 600), 'b-feb.jsonl': all.slice(400) },
      '*.jsonl',
      2,
    );
    h = await syncHarness();
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 1_000, skipped: 200, failed: 0, rejected: 0 });
    const repeat = at(run.outcomes, 'b-feb.jsonl', 1);
    expect(repeat).toMatchObject({ outcome: 'skipped', code: 'DUPLICATE_IN_SOURCE', externalId: 'INV-401' });
    expect(repeat?.message).toMatch(/a-jan\.jsonl:401 /);
    const stored = await h.stored(ACCOUNT, 'invoices');
    expectNoDuplicates(stored);
    expect(stored).toHaveLength(1_000 + SEEDED_INVOICES);
  });

  it('case 2: the same transaction externalId twice with different amounts: the second is rejected DUPLICATE_IN_SOURCE, not "already in the service"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-dup-tx-'));
    const csv = [
      'id;date;amount;purpose',
      'TX-1;2026-03-01;10.00;rent',
      'TX-2;2026-03-02;20.00;power',
      'TX-1;2026-03-03;99.00;rent again',
    ];
    writeFileSync(join(dir, 'tx.csv'), `${csv.join('\n')}\n`);
    const feed = [
      'name: adv-dup-tx',
      `accountId: ${ACCOUNT}`,
      'kind: transactions',
      'source:',
      '  path: tx.csv',
      '  format: csv',
      '  delimiter: ";"',
      'mapping:',
      '  externalId: id',
      '  bookingDate: date',
      '  amount: amount',
      '  currency: { const: EUR }',
      '  purpose: purpose',
      'bankAccount:',
      '  externalId: adv-dup-giro',
      '  accountName: Girokonto',
      '  bankName: Testbank',
    ];
    writeFileSync(join(dir, 'feed.yaml'), `${feed.join('\n')}\n`);
    h = await syncHarness();
    const run = await h.run(join(dir, 'feed.yaml'));
    expect(run.summary.counts).toMatchObject({ created: 2, rejected: 1, failed: 0 });
    const second = at(run.outcomes, 'tx.csv', 4);
    expect(second).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE', amount: '99' });
    expect(second?.message).toMatch(/tx\.csv:2 .*different content/);
    const stored = h.transactions(ACCOUNT).filter((t) => t.externalId === 'TX-1');
    expect(stored).toHaveLength(1);
  });
});
