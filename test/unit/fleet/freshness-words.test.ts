import { describe, expect, it } from 'vitest';
import { judgeFreshness } from '../../../src/fleet/freshness.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const entry = { feed: 'bank', accountId: 7, since: NOW - 30 * HOUR, expectEveryMs: HOUR };

describe('a freshness verdict in words', () => {
  it('says minutes under an hour, hours (one decimal) beyond, in its sentence and its brief', () => {
    const recent = judgeFreshness({ ...entry, lastNewAt: NOW - 25 * 60_000 }, NOW);
    expect(recent.stale).toBe(false);
    expect(recent.brief).toBe('last new export 25 min ago; every 1 h expected');
    expect(recent.message).toBe(
      'feed bank is fresh: last new export file seen at 2026-11-29T11:35:00.000Z (25 min ago), expected every 1 h',
    );
    const late = judgeFreshness({ ...entry, lastNewAt: NOW - 2.5 * HOUR, expectEveryMs: 30 * 60_000 }, NOW);
    expect(late.stale).toBe(true);
    expect(late.brief).toBe('last new export 2.5 h ago; every 30 min expected');
  });

  it('counts from the start of the watch when no export ever came', () => {
    const never = judgeFreshness(entry, NOW);
    expect(never.stale).toBe(true);
    expect(never.brief).toBe('no new export in 30 h of watching; every 1 h expected');
  });
});
