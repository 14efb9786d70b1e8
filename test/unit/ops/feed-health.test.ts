import { describe, expect, it } from 'vitest';
import {
  failingFindings,
  recentMedian,
  recordCountDrop,
  recordsRead,
} from '../../../src/ops/alerts/feed-health.js';
import { kindsKey, transitionOf } from '../../../src/ops/alerts/transitions.js';
import { type SummaryOptions, summaryOf } from '../../support/run-summaries.js';

const NOT_MODIFIABLE = {
  code: 'BANK_ACCOUNT_NOT_MODIFIABLE',
  message: "… — point the feed's bankAccount.externalId at a PARTNER account",
};
const NO_SLOT = {
  code: 'MAX_BANK_ACCOUNTS_REACHED',
  message: '… — hide an unused bank account (visible: false), book an add-on, or target an existing account',
};

describe('failingFindings: what makes a finished run’s feed failing', () => {
  const cases: [string, SummaryOptions, number, string[]][] = [
    ['every record created', { created: 100 }, 0.1, []],
    ['created, updated and skipped only', { created: 5, updated: 5, skipped: 90 }, 0.1, []],
    ['records failed after every retry', { created: 90, failed: 10 }, 0.1, ['chunk-failed']],
    ['one failed record is enough', { created: 999, failed: 1 }, 0.1, ['chunk-failed']],
    [
      'stopped: only the stop, not its failed records',
      { failed: 90, stop: NOT_MODIFIABLE },
      0.1,
      ['run-stopped'],
    ],
    ['stopped with no slot left', { created: 1, failed: 2, stop: NO_SLOT }, 0.1, ['run-stopped']],
    ['rejected above the share', { created: 89, rejected: 11 }, 0.1, ['rejected-share']],
    ['rejected exactly at the share is not above it', { created: 90, rejected: 10 }, 0.1, []],
    ['share 0: any rejected record', { created: 999, rejected: 1 }, 0, ['rejected-share']],
    ['share 1: never', { rejected: 100 }, 1, []],
    [
      'failed and rejected',
      { created: 40, failed: 10, rejected: 50 },
      0.1,
      ['chunk-failed', 'rejected-share'],
    ],
    [
      'stopped and rejected',
      { failed: 70, rejected: 30, stop: NO_SLOT },
      0.1,
      ['run-stopped', 'rejected-share'],
    ],
    ['no records at all', {}, 0.1, []],
    [
      'records without an outcome (a chunk job failed for good)',
      { created: 10, unaccounted: 5 },
      0.1,
      ['chunk-failed'],
    ],
  ];
  it.each(cases)('%s', (_name, options, share, kinds) => {
    expect(failingFindings(summaryOf(options), share).map((f) => f.kind)).toEqual(kinds);
  });

  it('tells the operator what to do: the stop’s hint, the counts, the share', () => {
    const [stopped] = failingFindings(summaryOf({ failed: 3, stop: NO_SLOT }), 0.1);
    expect(stopped?.message).toContain('MAX_BANK_ACCOUNTS_REACHED');
    expect(stopped?.message).toContain('book an add-on');
    const [failed] = failingFindings(summaryOf({ created: 7, failed: 3 }), 0.1);
    // The failed records' codes (the helper's records fail with code X, no message) say why.
    expect(failed?.message).toMatch(/^3 records failed \(X\); they are retried by the feed's next run/);
    const [lost] = failingFindings(summaryOf({ created: 7, failed: 1, unaccounted: 2 }), 0.1);
    expect(lost?.message).toMatch(
      /^3 records failed \(X; 2 of them have no outcome because their chunk job failed for good/,
    );
    // With no failed record to name (only chunk jobs failed for good): after every retry.
    const [unknown] = failingFindings(summaryOf({ created: 7, unaccounted: 2 }), 0.1);
    expect(unknown?.message).toMatch(
      /^2 records failed after every retry \(service errors or lost answers; 2 of them/,
    );
    const [rejected] = failingFindings(summaryOf({ created: 3, rejected: 1 }), 0.1);
    expect(rejected?.message).toMatch(/^1 of 4 records \(25 %\) were rejected, more than 10 %/);
  });

  it('counts the records read from the files', () => {
    expect(recordsRead(summaryOf({ created: 3, skipped: 2, rejected: 1, failed: 4 }))).toBe(10);
  });
});

describe('recordCountDrop: far fewer records than the feed’s recent runs', () => {
  const cases: [string, number, number[], number, boolean][] = [
    ['no history', 1, [], 0.5, false],
    ['two runs are too few to judge', 1, [1000, 1000], 0.5, false],
    ['three runs: below half the median', 499, [1000, 1000, 1000], 0.5, true],
    ['exactly half is no drop', 500, [1000, 1000, 1000], 0.5, false],
    ['one outlier does not move the median', 400, [1000, 10, 1000, 5000, 1000], 0.5, true],
    // Median of the five newest: 100; of all eight it would be 1000.
    ['only the last five runs count', 400, [100, 100, 100, 1000, 1000, 1000, 1000, 1000], 0.5, false],
    ['an even window takes the middle two', 74, [100, 100, 200, 200], 0.5, true],
    ['an even window, just at the line', 75, [100, 100, 200, 200], 0.5, false],
    ['share 0 turns the rule off', 0, [1000, 1000, 1000], 0, false],
    ['a feed that had no records', 0, [0, 0, 0], 0.5, false],
  ];
  it.each(cases)('%s', (_name, records, recent, share, dropped) => {
    const finding = recordCountDrop(records, recent, share);
    expect(finding !== undefined).toBe(dropped);
    if (finding) expect(finding.kind).toBe('record-count-drop');
  });

  it('names the count, the median and what to check', () => {
    expect(recentMedian([1000, 900, 1100])).toBe(1000);
    expect(recordCountDrop(120, [1000, 900, 1100], 0.5)?.message).toBe(
      "the run read 120 records, less than 50 % of the median of the feed's last 3 runs (1000): check that the ERP export is complete before its records are missed",
    );
  });
});

describe('transitionOf: only a change of state is notified', () => {
  const cases: [string[], string[], string][] = [
    [[], [], 'healthy'],
    [[], ['chunk-failed'], 'raised'],
    [[], ['run-stopped', 'rejected-share'], 'raised'],
    [['chunk-failed'], ['chunk-failed'], 'unchanged'],
    [['rejected-share', 'chunk-failed'], ['chunk-failed', 'rejected-share'], 'unchanged'],
    [['chunk-failed'], ['run-stopped'], 'changed'],
    [['chunk-failed'], ['chunk-failed', 'rejected-share'], 'changed'],
    [['chunk-failed', 'rejected-share'], ['rejected-share'], 'changed'],
    [['chunk-failed'], [], 'resolved'],
    [['run-stopped', 'rejected-share'], [], 'resolved'],
  ];
  it.each(cases)('%j -> %j: %s', (previous, next, transition) => {
    expect(transitionOf(previous, next)).toBe(transition);
  });

  it('compares kinds as sets', () => {
    expect(kindsKey(['run-stopped', 'chunk-failed', 'run-stopped'])).toBe('chunk-failed,run-stopped');
    expect(kindsKey([])).toBe('');
  });
});
