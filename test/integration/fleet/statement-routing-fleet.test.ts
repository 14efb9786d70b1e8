import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import {
  ACCOUNT,
  CAMT,
  DE_A,
  DEMO_CAMT_IBAN,
  feedOf,
  GB,
  target,
  unbalancedDemoCamt,
} from '../../support/statement-feeds.js';

const world = fleetTestWorld();

describe('statements route to their accounts on the fleet', () => {
  it('a camt file of two accounts: the mapped one to its target, the unknown one rejected; a rerun creates nothing', async () => {
    const fleet = world.start();
    fleet.worker(4);
    fleet.worker(4);
    const feed = feedOf(CAMT, 'camt', `bankAccounts: {${DE_A}: ${target('giro-a')}}`, 'routing-fleet');
    const [first] = await fleet.enqueue(feed);
    const summary = await fleet.finished(String(first?.runId));
    expect(summary.counts).toMatchObject({ created: 2, rejected: 1, failed: 0 });
    const rejected = (await fleet.outcomes(String(first?.runId))).find((o) => o.outcome === 'rejected');
    expect(rejected).toMatchObject({ code: 'UNKNOWN_ACCOUNT', externalId: 'AS-3' });
    expect(rejected?.message).toContain(`"${GB}" is not in the feed's bankAccounts`);
    const banks = [...(world.sandbox().runtime.state.accounts.get(ACCOUNT)?.bankAccounts.values() ?? [])];
    expect(banks.filter((b) => b.externalId === 'giro-a')).toHaveLength(1);
    expect(
      world
        .transactions(ACCOUNT)
        .map((t) => t.externalId)
        .sort(),
    ).toEqual(['AS-1', 'AS-2']);

    const [again] = await fleet.enqueue(feed, { reimport: true });
    expect((await fleet.finished(String(again?.runId))).counts).toMatchObject({ created: 0, skipped: 2 });
  });

  it('auto: the statements route across the chunk payload and each account is created once', async () => {
    const fleet = world.start();
    fleet.worker(4);
    const [run] = await fleet.enqueue(feedOf(CAMT, 'camt', 'bankAccounts: auto', 'routing-fleet-auto'));
    expect((await fleet.finished(String(run?.runId))).counts).toMatchObject({ created: 3, failed: 0 });
    const banks = [...(world.sandbox().runtime.state.accounts.get(ACCOUNT)?.bankAccounts.values() ?? [])];
    expect(banks.filter((b) => b.externalId === `iban-${DE_A}`)).toHaveLength(1);
    expect(banks.filter((b) => b.externalId === `iban-${GB}`)).toMatchObject([{ accountCurrency: 'USD' }]);
  });

  it('a statement’s balance moves its account once the run’s chunks are settled; the arithmetic warning is in the summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-fleet-balances-'));
    writeFileSync(join(dir, 'day.xml'), unbalancedDemoCamt());
    const feed = [
      'name: balances-fleet',
      `accountId: ${ACCOUNT}`,
      'kind: transactions',
      'source: {path: "*.xml", format: camt}',
      'bankAccounts: auto',
    ].join('\n');
    writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
    const fleet = world.start();
    fleet.worker(4);
    const [run] = await fleet.enqueue(join(dir, 'feed.yaml'));
    const summary = await fleet.finished(String(run?.runId));
    expect(summary.counts).toMatchObject({ created: 7, failed: 0 });
    expect(summary.files[0]?.statements).toMatchObject({
      count: 1,
      unbalanced: 1,
      warnings: [{ difference: '165.7', line: 16 }],
      balances: [{ outcome: 'updated', balanceDate: '2026-02-05', balanceReference: '2500.00' }],
    });
    const banks = [...(world.sandbox().runtime.state.accounts.get(ACCOUNT)?.bankAccounts.values() ?? [])];
    expect(banks.find((b) => b.externalId === `iban-${DEMO_CAMT_IBAN}`)).toMatchObject({
      balanceReference: 2500,
      balanceDate: '2026-02-05',
    });
  });
});
