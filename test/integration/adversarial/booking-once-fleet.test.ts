import { describe, expect, it } from 'vitest';
import { addDecimals } from '../../../src/sources/values/decimal.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { statementFeed } from '../../support/statement-feeds.js';
import { camtFile, lineOf } from '../../support/statement-files.js';
import { IBAN, plain, split, statement, TARGET, unsplit } from './booking-shapes.js';

const world = fleetTestWorld();
const total = () => world.transactions().reduce((sum, t) => addDecimals(sum, String(t.amount)), '0');

describe('issue 25 point 1 in the fleet: a booking counts once, whatever its shape', () => {
  it('a split batch and the same booking unsplit in one file, two workers: 10.00 once, the repeat skipped naming the first', async () => {
    const fleet = world.start();
    fleet.worker(2);
    fleet.worker(2);
    const text = camtFile(
      { id: 'S-1', account: { iban: IBAN }, entries: [split] },
      { id: 'S-2', account: { iban: IBAN }, entries: [unsplit] },
    );
    const { feed } = statementFeed({ 'a.xml': text }, 'camt', TARGET);
    const [enqueued] = await fleet.enqueue(feed);
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.counts).toEqual({ created: 2, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    expect(total()).toBe('10');
    const outcomes = await fleet.outcomes(String(enqueued?.runId));
    const repeat = outcomes.find((o) => o.outcome === 'skipped');
    expect(repeat).toMatchObject({ code: 'DUPLICATE_IN_SOURCE', line: lineOf(text, '<Ntry>', 2) });
    expect(repeat?.message).toContain(`a.xml:${lineOf(text, '<Ntry>')} `);
  });

  it('two files of one booking, split and unsplit, imported as two runs at once: 10.00 once', async () => {
    const fleet = world.start();
    fleet.worker(2);
    fleet.worker(2);
    const { feed } = statementFeed(
      {
        'a.xml': statement('S-1', split),
        'b.xml': statement('S-2', unsplit),
        'c.xml': statement('S-3', plain),
      },
      'camt',
      TARGET,
    );
    const runs = await fleet.enqueue(feed);
    expect(runs).toHaveLength(3);
    let created = 0;
    for (const run of runs) created += (await fleet.finished(String(run.runId))).counts.created;
    expect(total()).toBe('10');
    expect(created).toBeGreaterThan(0);
  });

  it('across runs: the booking the service holds as its parts is not created again as one entry, and rejected when it says another amount', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const earlier = statementFeed({ 'a.xml': statement('S-1', split) }, 'camt', TARGET);
    const [one] = await fleet.enqueue(earlier.feed);
    expect((await fleet.finished(String(one?.runId))).counts).toMatchObject({ created: 2 });
    const later = statementFeed({ 'b.xml': statement('S-2', plain) }, 'camt', TARGET);
    const [two] = await fleet.enqueue(later.feed);
    expect((await fleet.finished(String(two?.runId))).counts).toEqual({
      created: 0,
      updated: 0,
      skipped: 1,
      rejected: 0,
      failed: 0,
    });
    // Another amount: rejected naming what the service holds, never created beside it.
    const differing = statementFeed(
      { 'c.xml': statement('S-3', { ...plain, amount: '11.00' }) },
      'camt',
      TARGET,
    );
    const [three] = await fleet.enqueue(differing.feed);
    expect((await fleet.finished(String(three?.runId))).counts).toMatchObject({ rejected: 1, skipped: 0 });
    const [rejected] = await fleet.outcomes(String(three?.runId));
    expect(rejected).toMatchObject({ code: 'DUPLICATE_IN_SOURCE' });
    expect(rejected?.message).toContain('"R-1/#1" (its 2 parts, together 10 on 2026-03-02)');
    expect(total()).toBe('10');
  });

  it('the same MT940 statement twice in one file (NONREF entries): created once', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const day = [
      ':20:STARTUMS',
      `:25:${IBAN}`,
      ':28C:7/1',
      ':60F:C260301EUR100,00',
      ':61:2603020302C12,50NTRFNONREF',
      ':86:166?00GUTSCHRIFT?20Rechnung 1',
      ':61:2603020302D2,00NMSCNONREF',
      ':86:805?00ENTGELT?20Kontofuehrung',
      ':62F:C260302EUR110,50',
      '-',
    ].join('\r\n');
    const text = `${day}\r\n${day}\r\n`;
    const { feed } = statementFeed({ 'day.sta': text }, 'mt940', TARGET);
    const [enqueued] = await fleet.enqueue(feed);
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.counts).toEqual({ created: 2, updated: 0, skipped: 2, rejected: 0, failed: 0 });
    const outcomes = await fleet.outcomes(String(enqueued?.runId));
    expect(outcomes.find((o) => o.line === lineOf(text, ':61:', 3))?.message).toContain(
      `day.sta:${lineOf(text, ':61:')} `,
    );
    expect(total()).toBe('10.5');
  });
});
