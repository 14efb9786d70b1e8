import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camtSample } from '../../support/camt-rows.js';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { syncHarness } from '../../support/sync-harness.js';

/** A camt.052 intraday report of the same account: one booked entry, one pending. */
const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08">
<BkToCstmrAcctRpt>
<Rpt>
<Id>R1</Id>
<Acct><Id><IBAN>DE14740618130000033626</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2024-03-13</Dt></BookgDt><AcctSvcrRef>R1-1</AcctSvcrRef></Ntry>
<Ntry><Amt Ccy="EUR">2.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts><BookgDt><Dt>2024-03-13</Dt></BookgDt><AcctSvcrRef>R1-2</AcctSvcrRef></Ntry>
</Rpt>
</BkToCstmrAcctRpt>
</Document>
`;

/** A camt feed with no mapping section: the format's default mapping to transactions applies. */
function writeFeed(files: Record<string, string> = { 'b-report.xml': REPORT }): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-camt-e2e-'));
  copyFileSync(camtSample('camt053-vr-bank.xml'), join(dir, 'a-statement.xml'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const feed = [
    'name: camt-e2e',
    'accountId: 1001',
    'kind: transactions',
    'source: {path: "*.xml", format: camt}',
    'bankAccount: {externalId: vr-giro, accountName: VR Giro, bankName: VR-Bank Rottal-Inn}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

describe('a camt feed (the VR-Bank statement and a report with a pending entry), end to end', () => {
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
    expect(first.summary.controlTotals.created.amount).toBe('-154.1');
    expect(first.summary.controlTotals.skipped).toEqual({ records: 1, amount: '-2.5' });
    expect(first.summary.controlTotals.all).toEqual({ records: 9, amount: '-156.6' });

    const stored = h.transactions(1001);
    expect(stored).toHaveLength(8);
    expect(stored.map((t) => t.externalId).sort()).toEqual([
      '2013123001153870000',
      '2013123001153870001',
      '2014010303263400000/#1',
      '2014010303263400000/#2',
      '2014010509572410000',
      '367406715024072/1',
      '640387810124072/2',
      'R1-1',
    ]);
    expect(stored.find((t) => t.externalId === '367406715024072/1')).toMatchObject({
      bookingDate: '2024-03-12',
      valueDate: '2024-03-12',
      amount: -80,
      currency: 'EUR',
      purpose: '002462',
      counterpartyName: 'Rega',
      counterpartyIban: 'CH803000000',
    });

    const second = await h.run(feedFile);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 9, rejected: 0, failed: 0 });
    expect(h.transactions(1001)).toHaveLength(8);
  });

  it('the demo feed (account 1002): the VR-Bank statement with no mapping section, and a rerun creates nothing', async () => {
    const first = await h.run('config/feeds/demo/camt.yaml');
    expect(first.summary.counts).toEqual({ created: 7, updated: 0, skipped: 0, rejected: 0, failed: 0 });
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
