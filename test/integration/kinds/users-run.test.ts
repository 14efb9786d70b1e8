import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import { exitCodeOfRun, expectNoDuplicates, linesWith } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness;
afterEach(() => h?.close());

const ACCOUNT = 1002;

/** A users feed of account 1002 with four users (lines 2..5), derived IDs from the email. */
function usersFeed(): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-users-run-'));
  const rows = [1, 2, 3, 4].map((i) => `team-${i}@example.test;Uma;User ${i};${i === 1 ? 'ADMIN' : 'USER'}`);
  writeFileSync(join(dir, 'users.csv'), `${['email;first;last;role', ...rows].join('\n')}\n`);
  const feed = [
    'name: users-run',
    `accountId: ${ACCOUNT}`,
    'kind: users',
    'source: {path: users.csv, format: csv, delimiter: ";"}',
    'mapping: {email: email, firstName: first, lastName: last, role: role}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

function account(): AccountRecord {
  const found = h.sandbox.runtime.state.accounts.get(ACCOUNT);
  if (!found) throw new Error(`sandbox has no account ${ACCOUNT}`);
  return found;
}

describe('a users feed through the in-process runner', () => {
  it('a dry run sends nothing; MAX_USERS_REACHED stops the run, the users not sent fail with one reason', async () => {
    h = await syncHarness();
    const feedFile = usersFeed();
    const dry = await h.run(feedFile, true);
    expect(dry.summary.wouldSend).toBe(4);
    expect(h.requests('createUser')).toEqual({});

    account().subscriptionInformation.maxAllowedUsers = 3; // the seed admin counts
    for (const [i, run] of [await h.run(feedFile), await h.run(feedFile)].entries()) {
      expect(run.summary).toMatchObject({
        state: 'stopped',
        stopReason: { code: 'MAX_USERS_REACHED', exitCode: 1 },
      });
      expect(run.summary.stopReason?.message).toContain('no user slot left');
      expect(linesWith(run, i === 0 ? 'created' : 'skipped')).toEqual([2, 3]);
      expect(linesWith(run, 'failed')).toEqual([4, 5]);
      expect(new Set(run.outcomes.filter((o) => o.outcome === 'failed').map((o) => o.code))).toEqual(
        new Set(['MAX_USERS_REACHED']),
      );
      expect(exitCodeOfRun(run)).toBe(1);
    }
    const emails = [...account().users.values()].map((u) => u.email).sort();
    expect(emails).toEqual(['admin@demo-2.example', 'team-1@example.test', 'team-2@example.test']);
    expect([...account().users.values()].find((u) => u.email === 'team-1@example.test')?.role).toBe('ADMIN');

    account().subscriptionInformation.maxAllowedUsers = 5;
    const third = await h.run(feedFile);
    expect(third.summary.counts).toMatchObject({ created: 2, skipped: 2, failed: 0, rejected: 0 });
    expect(account().users.size).toBe(5);
  });
});

describe('a users feed under faults: no user created twice', () => {
  const created = () => [...account().users.values()].filter((u) => u.email.startsWith('team-'));

  it.each([{ fault: 'commit-then-500' as const }, { fault: 'commit-then-reset' as const }])(
    '$fault on two creates: re-listed, not resent; a rerun changes nothing',
    async ({ fault }) => {
      h = await syncHarness({ script: [{ op: 'createUser', fault, times: 2 }] });
      const feedFile = usersFeed();
      const first = await h.run(feedFile);
      expect(first.summary.counts).toMatchObject({ created: 4, failed: 0, rejected: 0 });
      expect(h.requests('createUser')).toEqual({
        [fault === 'commit-then-500' ? '500' : 'reset']: 2,
        '200': 2,
      });
      expectNoDuplicates(created());
      expect(created()).toHaveLength(4);
      const second = await h.run(feedFile);
      expect(second.summary.counts).toMatchObject({ created: 0, updated: 0, skipped: 4 });
      expect(created()).toHaveLength(4);
    },
  );

  it('random 500s, resets and lost answers on creates and listings: every run accounts for each user, none twice', async () => {
    h = await syncHarness({
      seed: 16,
      fail500: { rate: 0.3, ops: ['createUser', 'listUsers'] },
      reset: { rate: 0.2, ops: ['createUser', 'listUsers'] },
      commitThenFail: { rate: 0.4, mode: 'reset', ops: ['createUser'] },
    });
    const feedFile = usersFeed();
    for (let run = 0; run < 4; run++) {
      const result = await h.run(feedFile);
      expect(result.outcomes).toHaveLength(4);
      expectNoDuplicates(created());
    }
    const creates = h.requests('createUser');
    expect((creates['500'] ?? 0) + (creates.reset ?? 0), 'the faults hit creates').toBeGreaterThan(0);
    h.setFaults();
    const last = await h.run(feedFile);
    expect(last.summary.counts).toMatchObject({ failed: 0, rejected: 0 });
    expect(created()).toHaveLength(4);
  });
});
