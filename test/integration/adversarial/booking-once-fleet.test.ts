import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { createLogger } from '../../../src/logging/logger.js';
import { addDecimals } from '../../../src/sources/values/decimal.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { ACCOUNT, statementFeed } from '../../support/statement-feeds.js';
import { type CamtEntry, camtFile, lineOf } from '../../support/statement-files.js';
import {
  heldTransaction,
  IBAN,
  other,
  plain,
  split,
  statement,
  TARGET,
  threeParts,
  threePartsOther,
  unsplit,
} from './booking-shapes.js';

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

  it('across runs, a later file splits the batch into more parts: the new part skipped when the total agrees, rejected when it does not', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const earlier = statementFeed({ 'a.xml': statement('S-1', split) }, 'camt', TARGET);
    const [one] = await fleet.enqueue(earlier.feed);
    expect((await fleet.finished(String(one?.runId))).counts).toMatchObject({ created: 2 });
    for (const [name, entry, counts, verdict] of [
      ['b.xml', threeParts, { skipped: 3, rejected: 0 }, { outcome: 'skipped' }],
      [
        'c.xml',
        threePartsOther,
        { skipped: 2, rejected: 1 },
        { outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' },
      ],
    ] as const) {
      const later = statementFeed(
        { [name]: statement('S-2', entry) },
        'camt',
        TARGET,
        '*.xml',
        `bank-${name[0]}`,
      );
      const [run] = await fleet.enqueue(later.feed);
      expect((await fleet.finished(String(run?.runId))).counts).toEqual({
        created: 0,
        updated: 0,
        failed: 0,
        ...counts,
      });
      const third = (await fleet.outcomes(String(run?.runId))).find((o) => o.externalId === 'R-1/#3');
      expect(third).toMatchObject(verdict);
      expect(third?.message).toContain('"R-1/#1" (its 2 parts, together 10 on 2026-03-02)');
    }
    expect(total()).toBe('10');
  });

  it('a first run of a batch over three chunks whose middle chunk runs last: every part created, none rejected', async () => {
    const fleet = world.start();
    // The first chunk's create waits until the middle chunk is put behind the third.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let creates = 0;
    fleet.worker(1, {
      beforeRequest: async (start) => {
        if (start.operation === 'createTransactionsBulk' && creates++ === 0) await held;
      },
    });
    const details = Array.from({ length: 2500 }, (_, i) => ({
      text: `Part ${i + 1}`,
      amount: `${(i % 7) + 1}.00`,
      endToEnd: `E-${i + 1}`,
    }));
    const amount = details.reduce((sum, d) => addDecimals(sum, d.amount), '0');
    const batch: CamtEntry = { amount, date: '2026-03-02', ref: 'R-9', details };
    const { feed } = statementFeed({ 'big.xml': statement('S-1', batch) }, 'camt', TARGET);
    const [enqueued] = await fleet.enqueue(feed);
    const runId = String(enqueued?.runId);
    const waiting = async (seq: number) => {
      const deadline = Date.now() + HANG_GUARD_MS;
      for (;;) {
        const job = await fleet.queues.chunks.getJob(`${runId}-${seq}`);
        const state = await job?.getState();
        if (job && state === 'waiting') return job;
        if (Date.now() > deadline) throw new Error(`chunk ${seq} never waited (${state ?? 'not queued'})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const middle = await waiting(2);
    await waiting(3);
    // A prioritised job is taken after every job waiting without one.
    await middle.changePriority({ priority: 1 });
    release();
    expect((await fleet.finished(runId)).counts).toEqual({
      created: 2500,
      updated: 0,
      skipped: 0,
      rejected: 0,
      failed: 0,
    });
    expect(total()).toBe(amount);
    // The third chunk's parts were created before the middle chunk's: it found R-9/#1 without R-9/#1001.
    const ids = new Map(world.transactions().map((t) => [t.externalId, t.id]));
    expect(ids.get('R-9/#2001')).toBeLessThan(ids.get('R-9/#1001') ?? 0);
  });

  it('a first run that ended part-way (the service holds R/#1 and R/#2 of the same split): the rerun creates R/#3', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const [first] = await fleet.enqueue(
      statementFeed({ 'o.xml': statement('S-0', other) }, 'camt', TARGET).feed,
    );
    await fleet.finished(String(first?.runId));
    const sandbox = world.sandbox();
    const client = new PartnerClient(
      {
        baseUrl: sandbox.url,
        authUrl: sandbox.authUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
      },
      { logger: createLogger({ level: 'silent' }) },
    );
    try {
      const bank = (await client.listBankAccounts(ACCOUNT)).find((b) => b.externalId === 'giro');
      await client.createTransactionsBulk(ACCOUNT, bank?.id ?? -1, [
        heldTransaction('R-1/#1', 4),
        heldTransaction('R-1/#2', 3),
      ]);
    } finally {
      await client.close();
    }
    const rerun = statementFeed({ 'a.xml': statement('S-1', threeParts) }, 'camt', TARGET);
    const [run] = await fleet.enqueue(rerun.feed);
    expect((await fleet.finished(String(run?.runId))).counts).toEqual({
      created: 1,
      updated: 0,
      skipped: 2,
      rejected: 0,
      failed: 0,
    });
    expect(total()).toBe('11.5');
  });
});
