import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDecimals } from '../../../src/sources/values/decimal.js';
import { ACCOUNT, bankAccountsOf, statementFeed } from '../../support/statement-feeds.js';
import { type CamtEntry, type CamtStatementSpec, camtFile, lineOf } from '../../support/statement-files.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';
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

/** A pure MT940 statement of NONREF entries (derived identity), `:20:`/`:25:`/`:28C:` as given. */
const mt940Statement = (number: string) =>
  [
    ':20:STARTUMS',
    `:25:${IBAN}`,
    `:28C:${number}`,
    ':60F:C260301EUR100,00',
    ':61:2603020302C12,50NTRFNONREF',
    ':86:166?00GUTSCHRIFT?20Rechnung 1',
    ':61:2603020302D2,00NMSCNONREF',
    ':86:805?00ENTGELT?20Kontofuehrung',
    ':61:2603020302D2,00NMSCNONREF',
    ':86:805?00ENTGELT?20Kontofuehrung',
    ':62F:C260302EUR108,50',
    '-',
  ].join('\r\n');

describe('issue 25 point 1: a booking counts once, whatever its shape (in-process, sandbox)', () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  /** The transactions the sandbox holds in the target bank account. */
  const stored = () => {
    const [bank] = bankAccountsOf(h).filter((b) => b.externalId === 'giro');
    return [
      ...(h.sandbox.runtime.state.accounts
        .get(ACCOUNT)
        ?.transactions.get(bank?.id ?? -1)
        ?.values() ?? []),
    ];
  };
  const total = () => stored().reduce((sum, t) => addDecimals(sum, String(t.amount)), '0');

  it('a batch split by its amounts in one file and unsplit in the next: one booking of 10.00, the repeat skipped naming the first file and line', async () => {
    const first = statement('S-1', split, other);
    const { feed } = statementFeed({ 'a.xml': first, 'b.xml': statement('S-2', unsplit) }, 'camt', TARGET);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 3, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    expect(total()).toBe('11.5');
    const repeat = run.outcomes.find((o) => o.file.endsWith('b.xml'));
    expect(repeat).toMatchObject({ outcome: 'skipped', code: 'DUPLICATE_IN_SOURCE' });
    expect(repeat?.message).toContain(`a.xml:${lineOf(first, '<Ntry>')}`);
    expect(repeat?.message).toContain('R-1');
    expect((await h.run(feed)).summary.counts).toMatchObject({ created: 0, rejected: 0, failed: 0 });
    expect(total()).toBe('11.5');
  });

  it('the other order, and as a plain entry: the booking is created once', async () => {
    const { feed } = statementFeed(
      {
        'a.xml': statement('S-1', unsplit),
        'b.xml': statement('S-2', split),
        'c.xml': statement('S-3', plain),
      },
      'camt',
      TARGET,
    );
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 1, updated: 0, skipped: 3, rejected: 0, failed: 0 });
    expect(total()).toBe('10');
  });

  it('across runs: a booking the service holds in one shape is not created again in another', async () => {
    const splitFirst = statementFeed({ 'a.xml': statement('S-1', split) }, 'camt', TARGET);
    expect((await h.run(splitFirst.feed)).summary.counts).toMatchObject({ created: 2 });
    for (const [name, entry] of [
      ['b.xml', unsplit],
      ['c.xml', plain],
    ] as const) {
      const later = statementFeed({ [name]: statement('S-2', entry) }, 'camt', TARGET);
      const run = await h.run(later.feed);
      expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 1, rejected: 0, failed: 0 });
      expect(run.outcomes[0]?.message).toContain('R-1');
    }
    expect(total()).toBe('10');
  });

  it('across runs, plain first: the later batch split by its amounts creates nothing', async () => {
    const plainFirst = statementFeed({ 'a.xml': statement('S-1', plain) }, 'camt', TARGET);
    expect((await h.run(plainFirst.feed)).summary.counts).toMatchObject({ created: 1 });
    const later = statementFeed({ 'b.xml': statement('S-2', split) }, 'camt', TARGET);
    const run = await h.run(later.feed);
    expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 2, rejected: 0, failed: 0 });
    expect(total()).toBe('10');
  });

  it('across runs, parts first: a plain entry or unsplit batch with another amount is rejected DUPLICATE_IN_SOURCE naming what the service holds; the same amount is skipped', async () => {
    const splitFirst = statementFeed({ 'a.xml': statement('S-1', split, other) }, 'camt', TARGET);
    expect((await h.run(splitFirst.feed)).summary.counts).toMatchObject({ created: 3 });
    for (const [name, entry] of [
      ['b.xml', { ...plain, amount: '11.00' }],
      ['c.xml', { ...unsplit, amount: '11.00' }],
    ] as const) {
      const later = statementFeed({ [name]: statement('S-2', entry) }, 'camt', TARGET);
      const run = await h.run(later.feed);
      expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: 1, failed: 0 });
      const [rejected] = run.outcomes;
      expect(rejected).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
      // What the service holds: the two parts, their sum and date; and what the file says.
      expect(rejected?.message).toContain('"R-1/#1"');
      expect(rejected?.message).toContain('2 parts');
      expect(rejected?.message).toContain('10 on 2026-03-02');
      expect(rejected?.message).toContain('11.00 on 2026-03-02');
      expect(rejected?.serviceId).toEqual(expect.any(Number));
    }
    const same = statementFeed({ 'd.xml': statement('S-3', plain) }, 'camt', TARGET);
    const run = await h.run(same.feed);
    expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    expect(run.outcomes[0]?.message).toContain('already in the service as "R-1/#1"');
    expect(total()).toBe('11.5');
  });

  it('across runs, plain first: a batch split by its amounts with another total or date is rejected DUPLICATE_IN_SOURCE, part by part', async () => {
    const plainFirst = statementFeed({ 'a.xml': statement('S-1', plain) }, 'camt', TARGET);
    expect((await h.run(plainFirst.feed)).summary.counts).toMatchObject({ created: 1 });
    const moreParts = {
      ...split,
      amount: '12.00',
      details: [...split.details, { text: 'Part three', amount: '2.00', endToEnd: 'E-3' }],
    };
    for (const [name, entry, here] of [
      ['b.xml', moreParts, '12.00 on 2026-03-02'],
      ['c.xml', { ...split, date: '2026-03-03' }, '10.00 on 2026-03-03'],
    ] as const) {
      const later = statementFeed({ [name]: statement('S-2', entry) }, 'camt', TARGET);
      const run = await h.run(later.feed);
      const parts = entry.details.length;
      expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: parts, failed: 0 });
      for (const outcome of run.outcomes) {
        expect(outcome).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
        expect(outcome.message).toContain('as "R-1"');
        expect(outcome.message).toContain('10 on 2026-03-02');
        expect(outcome.message).toContain(here);
      }
    }
    expect(total()).toBe('10');
  });

  it('after an upgrade: the parts an earlier version named by their EndToEndId are found, as parts and as one entry', async () => {
    await h.run(statementFeed({ 'o.xml': statement('S-0', other) }, 'camt', TARGET).feed);
    const bank = bankAccountsOf(h).find((b) => b.externalId === 'giro');
    await h.client.createTransactionsBulk(ACCOUNT, bank?.id ?? -1, [
      heldTransaction('R-1/E-1', 4),
      heldTransaction('R-1/E-2', 6),
    ]);
    for (const entry of [split, unsplit]) {
      const run = await h.run(statementFeed({ 'a.xml': statement('S-1', entry) }, 'camt', TARGET).feed);
      expect(run.summary.counts).toMatchObject({ created: 0, rejected: 0, failed: 0 });
      expect(run.outcomes[0]?.message).toContain('already in the service as "R-1/E-1"');
    }
    expect(total()).toBe('11.5');
  });

  it("across runs, a later file splits the batch into more parts with the same total: nothing created, the new part skipped naming the service's split (dry run alike)", async () => {
    const earlier = statementFeed({ 'a.xml': statement('S-1', split) }, 'camt', TARGET);
    expect((await h.run(earlier.feed)).summary.counts).toMatchObject({ created: 2 });
    const later = statementFeed({ 'b.xml': statement('S-2', threeParts) }, 'camt', TARGET);
    const expected = { created: 0, updated: 0, skipped: 3, rejected: 0, failed: 0 };
    expect((await h.run(later.feed, true)).summary.counts).toEqual(expected);
    const run = await h.run(later.feed);
    expect(run.summary.counts).toEqual(expected);
    const third = run.outcomes.find((o) => o.externalId === 'R-1/#3');
    expect(third).toMatchObject({ outcome: 'skipped', serviceId: expect.any(Number) });
    expect(third?.message).toContain('"R-1/#1" (its 2 parts, together 10 on 2026-03-02)');
    expect(third?.message).toContain('split otherwise');
    expect(third?.message).toContain(
      'part 3 of a batch of 10.00 on 2026-03-02 split into 3 (4.00, 3.00, 3.00)',
    );
    expect(total()).toBe('10');
  });

  it('across runs, a later file splits the batch into more parts with another total: the new part rejected DUPLICATE_IN_SOURCE (dry run alike)', async () => {
    const earlier = statementFeed({ 'a.xml': statement('S-1', split) }, 'camt', TARGET);
    expect((await h.run(earlier.feed)).summary.counts).toMatchObject({ created: 2 });
    const later = statementFeed({ 'b.xml': statement('S-2', threePartsOther) }, 'camt', TARGET);
    const expected = { created: 0, updated: 0, skipped: 2, rejected: 1, failed: 0 };
    expect((await h.run(later.feed, true)).summary.counts).toEqual(expected);
    const run = await h.run(later.feed);
    expect(run.summary.counts).toEqual(expected);
    const third = run.outcomes.find((o) => o.externalId === 'R-1/#3');
    expect(third).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
    expect(third?.message).toContain('"R-1/#1" (its 2 parts, together 10 on 2026-03-02)');
    expect(third?.message).toContain('split into 3 (4.00, 3.00, 4.00)');
    expect(total()).toBe('10');
  });

  it('a first run that ended part-way (the service holds R/#1 and R/#2 of the same split): the rerun creates R/#3', async () => {
    await h.run(statementFeed({ 'o.xml': statement('S-0', other) }, 'camt', TARGET).feed);
    const bank = bankAccountsOf(h).find((b) => b.externalId === 'giro');
    await h.client.createTransactionsBulk(ACCOUNT, bank?.id ?? -1, [
      heldTransaction('R-1/#1', 4),
      heldTransaction('R-1/#2', 3),
    ]);
    const rerun = statementFeed({ 'a.xml': statement('S-1', threeParts) }, 'camt', TARGET);
    // The dry run would send R/#3, as the real run creates it.
    const dry = await h.run(rerun.feed, true);
    expect(dry.summary.counts).toEqual({ created: 0, updated: 0, skipped: 2, rejected: 0, failed: 0 });
    expect(dry.summary.wouldSend).toBe(1);
    const run = await h.run(rerun.feed);
    expect(run.summary.counts).toEqual({ created: 1, updated: 0, skipped: 2, rejected: 0, failed: 0 });
    expect(run.outcomes.find((o) => o.externalId === 'R-1/#3')).toMatchObject({ outcome: 'created' });
    expect(total()).toBe('11.5');
  });

  it('a later appearance that says otherwise (another amount) is rejected DUPLICATE_IN_SOURCE, never created beside the first', async () => {
    const first = statement('S-1', split);
    const differing = statement('S-2', { ...plain, amount: '11.00' });
    const { feed } = statementFeed({ 'a.xml': first, 'b.xml': differing }, 'camt', TARGET);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 2, updated: 0, skipped: 0, rejected: 1, failed: 0 });
    const rejected = run.outcomes.find((o) => o.outcome === 'rejected');
    expect(rejected).toMatchObject({ code: 'DUPLICATE_IN_SOURCE', file: expect.stringMatching(/b\.xml$/) });
    expect(rejected?.message).toContain(`a.xml:${lineOf(first, '<Ntry>')}`);
    expect(total()).toBe('10');
  });

  it('the same MT940 statement twice in one file (same :20:, :25:, :28C:, NONREF entries): its entries are created once', async () => {
    const text = `${mt940Statement('7/1')}\r\n${mt940Statement('7/1')}\r\n`;
    const { feed } = statementFeed({ 'day.sta': text }, 'mt940', TARGET);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 3, updated: 0, skipped: 3, rejected: 0, failed: 0 });
    // Two equal fees in one statement are two bookings, each once.
    expect(stored()).toHaveLength(3);
    expect(total()).toBe('8.5');
    const repeat = run.outcomes.find((o) => o.line === 17);
    expect(repeat).toMatchObject({ outcome: 'skipped', code: 'DUPLICATE_IN_SOURCE' });
    expect(repeat?.message).toContain('day.sta:5 ');
  });

  it('two statements of one day with other numbers are not a repeat: the same fee in each is two bookings', async () => {
    const text = `${mt940Statement('7/1')}\r\n${mt940Statement('8/1')}\r\n`;
    const { feed } = statementFeed({ 'day.sta': text }, 'mt940', TARGET);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 6, updated: 0, skipped: 0, rejected: 0, failed: 0 });
  });

  it('a camt Stmt/Id twice without AcctSvcrRef: its entries are created once', async () => {
    const noRef = (e: CamtEntry): CamtEntry => {
      const { ref: _, ...rest } = e;
      return rest;
    };
    const once: CamtStatementSpec = {
      id: 'S-9',
      account: { iban: IBAN },
      entries: [noRef(plain), noRef(other)],
    };
    const text = camtFile(once, once);
    const { feed } = statementFeed({ 'day.xml': text }, 'camt', TARGET);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 2, updated: 0, skipped: 2, rejected: 0, failed: 0 });
    expect(total()).toBe('11.5');
  });
});

describe('issue 25 point 1: two runs at once, each with one shape of a booking (real time)', () => {
  let h: SyncHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('the booking is created by one run; the other finds it in the service in the other shape', async () => {
    // Slow checks and creates widen the window in which both runs find the booking missing.
    h = await syncHarness(
      { latency: { ms: 150, jitterMs: 0, ops: ['checkTransactionsExist', 'createTransactionsBulk'] } },
      { realTime: true },
    );
    // The target exists before (its create claim would otherwise keep the runs apart).
    await h.run(statementFeed({ 'o.xml': statement('S-0', other) }, 'camt', TARGET).feed);
    // Two feeds (a run holds its feed's lock: two runs of one feed never overlap).
    const a = statementFeed({ 'a.xml': statement('S-1', split) }, 'camt', TARGET, '*.xml', 'bank-a');
    const b = statementFeed({ 'b.xml': statement('S-2', plain) }, 'camt', TARGET, '*.xml', 'bank-b');
    const runs = await Promise.all([h.run(a.feed), h.run(b.feed)]);
    expect(runs.map((r) => r.summary.counts.failed)).toEqual([0, 0]);
    const amounts = [...(h.sandbox.runtime.state.accounts.get(ACCOUNT)?.transactions.values() ?? [])]
      .flatMap((m) => [...m.values()])
      .map((t) => String(t.amount));
    expect(amounts.reduce((sum, a) => addDecimals(sum, a), '0')).toBe('11.5');
  });
});
