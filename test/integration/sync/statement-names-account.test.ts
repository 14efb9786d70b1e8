import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT, bankAccountsOf, statementFeed, target } from '../../support/statement-feeds.js';
import { type CamtAccount, camtFile } from '../../support/statement-files.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

const IBAN = 'DE89370400440532013000';
const NL = 'NL26ABNA0417164300';

const camtOf = (account: CamtAccount) =>
  camtFile({
    id: 'S-1',
    account,
    closing: { amount: '512.00', date: '2026-03-02' },
    entries: [{ amount: '12.00', date: '2026-03-02', ref: 'AS-1', details: [{ text: 'Invoice 1' }] }],
  });

/** An MT940 statement without `:25:`, with its balances. */
const mt940WithoutAccount = [
  ':20:STARTUMS',
  ':28C:1/1',
  ':60F:C260301EUR500,00',
  ':61:2603020302C12,00NTRFNONREF//BR-1',
  ':86:166?00GUTSCHRIFT?20Invoice 1',
  ':62F:C260302EUR512,00',
  '-',
  '',
].join('\r\n');

const pinned = `bankAccount: {externalId: giro, accountName: Giro, bankName: Bank, iban: "${IBAN}"}`;
const byNumber =
  'bankAccount: {externalId: giro, accountName: Giro, bankName: Bank, accountNumber: "0532013000"}';
const mapped = `bankAccounts: {${IBAN}: ${target('giro')}}`;

describe('issue 25 point 2: a statement names its account or is refused (in-process, sandbox)', () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  const transactions = () =>
    [...(h.sandbox.runtime.state.accounts.get(ACCOUNT)?.transactions.values() ?? [])].flatMap((m) => [
      ...m.values(),
    ]);
  const withBalance = () => bankAccountsOf(h).filter((b) => b.balanceDate != null);

  const cases: [string, Record<string, string>, 'camt' | 'mt940'][] = [
    ['camt <IBAN></IBAN>', { 'day.xml': camtOf('empty') }, 'camt'],
    ['camt without <Acct>', { 'day.xml': camtOf('none') }, 'camt'],
    ['MT940 without :25:', { 'day.sta': mt940WithoutAccount }, 'mt940'],
  ];
  for (const [what, files, format] of cases)
    for (const [how, targets] of [
      ['a feed pinned by iban', pinned],
      ['a feed pinned by accountNumber', byNumber],
      ['bankAccounts as a map', mapped],
      ['bankAccounts: auto', 'bankAccounts: auto'],
    ] as const)
      it(`${what} under ${how}: UNKNOWN_ACCOUNT, nothing created, no balance set`, async () => {
        const { feed } = statementFeed(files, format, targets);
        const run = await h.run(feed);
        expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: 1, failed: 0 });
        expect(run.outcomes[0]).toMatchObject({
          outcome: 'rejected',
          code: 'UNKNOWN_ACCOUNT',
          message: expect.stringContaining('the statement names no account'),
        });
        expect(transactions()).toHaveLength(0);
        expect(withBalance()).toHaveLength(0);
      });

  it('a feed whose bankAccount names neither iban nor accountNumber still takes a statement that names none', async () => {
    const { feed } = statementFeed(
      { 'day.xml': camtOf('none') },
      'camt',
      'bankAccount: {externalId: giro, accountName: Giro, bankName: Bank}',
    );
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 1, rejected: 0 });
  });

  it('bankAccounts: auto refuses an account given only as Othr/Id, even one that reads like an IBAN (docs/feeds.md)', async () => {
    const { feed } = statementFeed({ 'day.xml': camtOf({ other: NL }) }, 'camt', 'bankAccounts: auto');
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: 1, failed: 0 });
    expect(run.outcomes[0]).toMatchObject({
      code: 'UNKNOWN_ACCOUNT',
      message: expect.stringContaining(`statement account "${NL}" is given as Othr/Id, not as an IBAN`),
    });
    expect(bankAccountsOf(h).filter((b) => b.externalId?.startsWith('iban-'))).toHaveLength(0);
    expect(withBalance()).toHaveLength(0);
  });

  it('bankAccounts: auto still creates the account of a camt IBAN', async () => {
    const { feed } = statementFeed({ 'day.xml': camtOf({ iban: NL }) }, 'camt', 'bankAccounts: auto');
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 1, rejected: 0 });
    expect(bankAccountsOf(h).filter((b) => b.externalId === `iban-${NL}`)).toHaveLength(1);
  });
});
