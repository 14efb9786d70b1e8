import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FaultScenarios } from '../../support/fault-scenarios.js';
import { type GeneratedExport, transactionsExport } from '../../support/generated-exports.js';

let source: GeneratedExport;
beforeAll(() => {
  source = transactionsExport({ name: 'adv-429-gw', rows: 1_200 });
});
const s = new FaultScenarios({ kind: 'transactions', accountId: 1001, seeded: 0 }, () => source);
afterEach(() => s.close());

/** Issue 18 item 12, end to end on fake time: waits and gateway hiccups never fail records. */
describe('issue 18 item 12: 429 storms and gateway errors on reads', () => {
  it('item 12 (429): 40 consecutive 429s on one bulk create: waited out (40 s < 900 s), nothing RATE_LIMITED', async () => {
    await s.allCreatedOnceThenNothing({
      script: [{ op: 'createTransactionsBulk', fault: '429', times: 40, retryAfterSeconds: 1 }],
    });
    expect(s.h.requests('createTransactionsBulk')).toMatchObject({ '429': 40 });
  });

  it('item 12 (502/503 on a read): the existence check answered 503 then 502 is retried, the chunk syncs', async () => {
    await s.allCreatedOnceThenNothing({
      script: [
        { op: 'checkTransactionsExist', fault: '503' },
        { op: 'checkTransactionsExist', fault: '502' },
      ],
    });
    expect(s.h.requests('checkTransactionsExist')).toMatchObject({ '502': 1, '503': 1 });
    expect(s.h.clock.sleeps.slice(0, 2)).toEqual([1_000, 2_000]);
  });
});
