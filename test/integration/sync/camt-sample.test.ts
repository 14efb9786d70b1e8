import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { syncHarness } from '../../support/sync-harness.js';

/** The demo's camt.053 statement (config/feeds/demo/exports/camt, written for the demo). */
const DEMO_STATEMENT = 'config/feeds/demo/exports/camt/camt053-raiffeisen-2026-02-04.xml';

/** A camt.052 intraday report of the same account: one booked entry, one pending. */
const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08">
<BkToCstmrAcctRpt>
<Rpt>
<Id>R1</Id>
<Acct><Id><IBAN>DE80740699110000033627</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-02-05</Dt></BookgDt><AcctSvcrRef>R1-1</AcctSvcrRef></Ntry>
<Ntry><Amt Ccy="EUR">2.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts><BookgDt><Dt>2026-02-05</Dt></BookgDt><AcctSvcrRef>R1-2</AcctSvcrRef></Ntry>
</Rpt>
</BkToCstmrAcctRpt>
</Document>
`;

/** A camt feed with no mapping section: the format's default mapping to transactions applies. */
function writeFeed(files: Record<string, string> = { 'b-report.xml': REPORT }): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-camt-e2e-'));
  copyFileSync(DEMO_STATEMENT, join(dir, 'a-statement.xml'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const feed = [
    'name: camt-e2e',
    'accountId: 1001',
    'kind: transactions',
    'source: {path: "*.xml", format: camt}',
    'bankAccount: {externalId: vr-giro, accountName: Vereinskonto, bankName: Raiffeisenbank Lindenau}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

describe('a camt feed (the demo statement and a report with a pending entry), end to end', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  it('creates every booked entry (the batch as two), leaves the pending one out, and a rerun creates nothing', async () => {
    const feedFile = writeFeed();
    const first = await h.run(feedFile);
    expect(first.summary.counts).toEqual({ created: 8, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    const pending = first.outcomes.find((o) => o.outcome === 'skipped');
    expect(pending).toMatchObject({
      file: expect.stringMatching(/b-report\.xml$/),
      line: 8,
      code: 'EXCLUDED',
      message: expect.stringContaining('pending (status PDNG)'),
    });
    expect(first.summary.controlTotals.created.amount).toBe('823.86');
    expect(first.summary.controlTotals.skipped).toEqual({ records: 1, amount: '-2.5' });
    expect(first.summary.controlTotals.all).toEqual({ records: 9, amount: '821.36' });

    const stored = h.transactions(1001);
    expect(stored).toHaveLength(8);
    expect(stored.map((t) => t.externalId).sort()).toEqual([
      '2026020300412270001',
      '2026020300517730000/#1',
      '2026020300517730000/#2',
      '2026020400120040000',
      '2026020400233110000',
      '2026020400233110001',
      '2026020400900000001',
      'R1-1',
    ]);
    // One transaction of the batched collection: its own amount, debtor and purpose.
    expect(stored.find((t) => t.externalId === '2026020300517730000/#2')).toMatchObject({
      bookingDate: '2026-02-03',
      valueDate: '2026-02-03',
      amount: 75,
      currency: 'EUR',
      purpose: 'Mitgliedsbeitrag Februar 2026 Mitgl. 32',
      counterpartyName: 'Jonas Brandt',
      counterpartyIban: 'DE51520999550004410032',
    });
    // An amount without decimals, a purpose in two Ustrd parts, an entity in a name.
    expect(stored.find((t) => t.externalId === '2026020400233110000')?.amount).toBe(-80);
    expect(stored.find((t) => t.externalId === '2026020300412270001')?.purpose).toBe(
      'Rechnung 2026-0117 vom 19.01.2026 Konzert Fruehjahr Kundennr. 4471 Danke',
    );
    expect(stored.find((t) => t.externalId === '2026020400233110001')).toMatchObject({
      counterpartyName: 'Notenhaus Weber & Kolb OHG',
      purpose: 'Chorpartituren Fruehjahrskonzert 34 Ex. RF18539007547034',
    });

    const second = await h.run(feedFile);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 9, rejected: 0, failed: 0 });
    expect(h.transactions(1001)).toHaveLength(8);
  });

  it('the demo feed (account 1002): the statement with no mapping section, its balance, and a rerun creates nothing', async () => {
    const first = await h.run('config/feeds/demo/camt.yaml');
    expect(first.summary.counts).toEqual({ created: 7, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(first.summary.controlTotals.created.amount).toBe('813.86');
    // The demo's statement adds up: its closing balance is set, without a warning.
    expect(first.summary.files[0]?.statements).toMatchObject({
      count: 1,
      balances: [{ outcome: 'updated', balanceReference: '2334.30' }],
    });
    expect(first.summary.files[0]?.statements?.warnings ?? []).toEqual([]);
    expect(h.transactions(1002)).toHaveLength(7);
    const second = await h.run('config/feeds/demo/camt.yaml');
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 7, rejected: 0, failed: 0 });
    expect(h.transactions(1002)).toHaveLength(7);
  });

  it('an unsupported camt version stops the run with exit code 2 naming the file and the namespace', async () => {
    const feedFile = writeFeed({ 'b-report.xml': REPORT.replace('camt.052.001.08', 'camt.052.001.12') });
    const run = await h.run(feedFile);
    expect(run.summary.state).toBe('stopped');
    expect(run.summary.stopReason).toMatchObject({ code: 'CAMT_UNSUPPORTED', exitCode: 2 });
    expect(run.summary.stopReason?.message).toMatch(
      /b-report\.xml: not a supported camt message: the root element is <Document> in namespace "urn:iso:std:iso:20022:tech:xsd:camt\.052\.001\.12"/,
    );
    expect(exitCodeOfRun(run)).toBe(2);
  });
});
