import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { type CheckOptions, checkFeed, type FeedCheck } from '../../src/check/check-feed.js';
import { init } from '../../src/cli/commands/init-run.js';
import { cliLogger } from '../../src/cli/log-output.js';
import { ConfigError } from '../../src/config/errors.js';
import { loadFeedFile } from '../../src/config/load-feed.js';
import { KINDS, type RecordKind } from '../../src/kinds/registry.js';
import { systemClock } from '../../src/time/clock.js';
import { runCli } from './cli-run.js';

/**
 * Issue 28's measurement of `erp-bridge init`: one export in, the feed init writes filled in with
 * nothing but the account (and the target bank account's placeholders), then `check`'s records
 * compared with those of the feed a person wrote for the export. Shared by the test on the
 * project's own exports (npm test) and on the other projects' samples (npm run test:samples).
 */

export type Outcome = 'right as inferred' | 'asked' | 'wrong';

export interface Measured {
  export: string;
  format: string;
  outcome: Outcome;
  /** The settings of the written feed by how sure init was (its `# sure:`/`# guess:`/`# ask:` comments). */
  settings: { sure: number; guess: number; ask: number };
  /** Why it was asked (the loader's refusal) or wrong (the first differing record). */
  detail?: string;
  /** Asked, and right as inferred once the person decided what init asked. */
  decided?: boolean;
  /** When wrong: the payload keys whose values differ from the hand-written feed's (`records` when their number or lines do). */
  differs?: string[];
  /** The written feed file and the hand-written one, for a sandbox sync. */
  inferredFeed: string;
  handFeed: string;
}

const CHECK: CheckOptions = {
  show: Number.MAX_SAFE_INTEGER,
  examples: 3,
  env: {},
  clock: systemClock,
  logger: cliLogger('text', 'silent'),
};

/** The hand-written feed's account and bank account, as the person fills init's placeholders in. */
function fillIn(text: string, hand: Record<string, unknown>): string {
  const account =
    hand.accountId !== undefined
      ? `accountId: ${hand.accountId}`
      : `accountExternalId: ${JSON.stringify(hand.accountExternalId)}`;
  const bank = (hand.bankAccount ?? {}) as Record<string, unknown>;
  let filled = text.replace(/^accountId: '<fill in.*$/m, account);
  // A statement feed written for several accounts (`bankAccounts: auto` or a map) in place of
  // init's one bankAccount, as the person would replace it.
  if (hand.bankAccounts !== undefined)
    return filled.replace(
      /^bankAccount:\n(?: {2}.*\n)*/m,
      `bankAccounts: ${JSON.stringify(hand.bankAccounts)}\n`,
    );
  for (const key of ['externalId', 'accountName', 'bankName'])
    filled = filled.replace(
      new RegExp(`^ {2}${key}: '<fill in.*$`, 'm'),
      `  ${key}: ${JSON.stringify(bank[key] ?? 'filled in')}`,
    );
  return filled;
}

/**
 * A feed's records as check reads them (line and payload) and as the service holds them, or its
 * refusal. A transaction sent without a currency is kept in its bank account's currency
 * (docs/contract.md, "Transaction in responses"; the sandbox does so): the account's currency the
 * feed pins is filled in, so `currency: {const: EUR}` beside an EUR account is the same record as
 * none at all — a currency the account does not hold still differs.
 */
async function recordsOf(feedFile: string): Promise<{ check: FeedCheck } | { refused: string }> {
  try {
    const loaded = await loadFeedFile(feedFile);
    const check = await checkFeed(loaded, CHECK);
    const pinned = KINDS[loaded.feed.kind].pinnedCurrency?.(loaded.feed);
    if (pinned === undefined) return { check };
    const held = (payload: unknown) =>
      (payload as { currency?: unknown }).currency === undefined
        ? { ...(payload as object), currency: pinned }
        : payload;
    return { check: { ...check, samples: check.samples.map((s) => ({ ...s, payload: held(s.payload) })) } };
  } catch (error) {
    if (error instanceof ConfigError) return { refused: error.message };
    throw error;
  }
}

/** The payload keys two record lists disagree on. */
function differingKeys(ours: FeedCheck, theirs: FeedCheck): string[] {
  const keys = new Set<string>();
  if (ours.samples.length !== theirs.samples.length) keys.add('records');
  for (const [i, sample] of ours.samples.entries()) {
    const other = theirs.samples[i];
    if (!other || other.line !== sample.line) {
      keys.add('records');
      continue;
    }
    const a = sample.payload as Record<string, unknown>;
    const b = other.payload as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) keys.add(key);
  }
  return [...keys].sort();
}

/** Each record as `line payload`, the payload's keys sorted (records equal in any key order). */
const linesOf = (check: FeedCheck): string[] =>
  check.samples.map(
    (s) =>
      `${s.line} ${JSON.stringify(Object.fromEntries(Object.entries(s.payload as object).sort(([a], [b]) => a.localeCompare(b))))}`,
  );

/**
 * Runs init in process (the CLI's own run function, its screen silenced) on a copy of the export in
 * a folder of its own, fills the account in, and compares check's records with the hand-written
 * feed's (its source.path pointed at the copy). A feed still refused for an init placeholder is
 * "asked"; any other difference — fewer, more or other records, rejections, a stop — is "wrong".
 */
export async function measure(
  exportFile: string,
  handFeed: Record<string, unknown>,
  options: {
    kind?: RecordKind;
    label?: string;
    /**
     * What the person decides where init asked: a key's placeholder line (or its line left out as
     * `# key: (left out …`) replaced by its value, written as JSON (a YAML flow value).
     */
    decide?: Record<string, unknown>;
  } = {},
): Promise<Measured> {
  const work = mkdtempSync(join(tmpdir(), 'erp-bridge-first-feed-'));
  mkdirSync(join(work, 'exports'));
  const copy = join(work, 'exports', basename(exportFile));
  copyFileSync(exportFile, copy);
  const handFile = join(work, 'hand.yaml');
  const source = { ...(handFeed.source as Record<string, unknown>), path: `exports/${basename(exportFile)}` };
  writeFileSync(handFile, stringify({ ...handFeed, name: 'hand', source }));

  const inferredFile = join(work, 'inferred.yaml');
  const screen = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  let code: number;
  try {
    code = await init(copy, {
      out: inferredFile,
      force: false,
      ...(options.kind ? { kind: options.kind } : {}),
    });
  } finally {
    screen.mockRestore();
  }
  if (code !== 0) throw new Error(`init ${exportFile}: exit ${code}`);
  const written = readFileSync(inferredFile, 'utf8');
  const count = (certainty: string) =>
    written.split('\n').filter((line) => line.trimStart().startsWith(`# ${certainty}:`)).length;
  let filled = fillIn(written, handFeed);
  for (const [key, value] of Object.entries(options.decide ?? {}))
    filled = filled.replace(
      new RegExp(`^( *)(?:${key}: '<fill in|# ${key}: \\(left out).*$`, 'm'),
      `$1${key}: ${JSON.stringify(value)}`,
    );
  writeFileSync(inferredFile, filled);

  const base = {
    export: options.label ?? basename(exportFile),
    format: String((parse(written) as { source: { format: string } }).source.format),
    settings: { sure: count('sure'), guess: count('guess'), ask: count('ask') },
    inferredFeed: inferredFile,
    handFeed: handFile,
  };
  const hand = await recordsOf(handFile);
  if ('refused' in hand) throw new Error(`the hand-written feed for ${exportFile}: ${hand.refused}`);
  const inferred = await recordsOf(inferredFile);
  if ('refused' in inferred)
    return /not filled in yet/.test(inferred.refused)
      ? { ...base, outcome: 'asked', detail: inferred.refused }
      : { ...base, outcome: 'wrong', detail: inferred.refused };
  const same =
    inferred.check.stops.length === 0 &&
    hand.check.stops.length === 0 &&
    JSON.stringify(inferred.check.counts) === JSON.stringify(hand.check.counts) &&
    JSON.stringify(linesOf(inferred.check)) === JSON.stringify(linesOf(hand.check));
  if (same) return { ...base, outcome: 'right as inferred' };
  // A setting init asked for and left out of the feed (a `# key: (left out …` line, e.g. DATEV's
  // exclude): the feed loads, but it is the person's decision still to make, not a wrong guess.
  const leftOut = [...filled.matchAll(/^ *# (\w+): \(left out/gm)].map((m) => m[1]);
  if (leftOut.length > 0)
    return {
      ...base,
      outcome: 'asked',
      detail: `init asked for ${leftOut.join(', ')} and left it out until decided`,
    };
  const ours = linesOf(inferred.check);
  const theirs = linesOf(hand.check);
  const at = ours.findIndex((line, i) => line !== theirs[i]);
  return {
    ...base,
    outcome: 'wrong',
    differs: differingKeys(inferred.check, hand.check),
    detail: `inferred ${ours.length} records, hand-written ${theirs.length}; first difference: ${ours[at] ?? '(none)'} vs ${theirs[at] ?? '(none)'}${inferred.check.stops.map((s) => `; stop: ${s.message}`).join('')}`,
  };
}

/** The records `sync --sandbox` created for a feed (a child process: its own embedded sandbox). */
export async function sandboxCreated(feedFile: string, reportDir: string): Promise<number> {
  // A fresh sandbox knows no tenant named by accountExternalId: its seeded customer account 1001 instead.
  writeFileSync(
    feedFile,
    readFileSync(feedFile, 'utf8').replace(/^accountExternalId: .*$/m, 'accountId: 1001'),
  );
  const ran = await runCli(
    ['sync', '--sandbox', '--report-dir', reportDir, '--log-level', 'silent', feedFile],
    {},
  );
  const created = /completed: (\d+) created/.exec(ran.stdout);
  if (ran.code !== 0 || !created)
    throw new Error(`sync --sandbox ${feedFile}: exit ${ran.code}\n${ran.stdout}${ran.stderr}`);
  return Number(created[1]);
}

/** The table a test prints and .notes/firstfeed.md holds. */
export function table(rows: readonly Measured[]): string {
  const head = [
    '| Export | format | outcome | sure | guess | ask |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  return [
    ...head,
    ...rows.map(
      (r) =>
        `| ${r.export} | ${r.format} | ${r.outcome}${r.decided ? ' (right once decided)' : ''}${r.differs ? ` (${r.differs.join(', ')})` : ''} | ${r.settings.sure} | ${r.settings.guess} | ${r.settings.ask} |`,
    ),
  ].join('\n');
}
