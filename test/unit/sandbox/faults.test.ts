import { describe, expect, it } from 'vitest';
import {
  createFaultInjector,
  type FaultDecision,
  type FaultInjector,
  type FaultRequest,
  parseFaultConfig,
} from '../../../src/sandbox/faults.js';
import { mulberry32 } from '../../../src/sandbox/faults-random.js';

const req = (op: FaultRequest['op'] = 'createTransactionsBulk', partnerId = 'p1'): FaultRequest => ({
  op,
  method: op.startsWith('list') || op.startsWith('get') ? 'GET' : 'POST',
  partnerId,
  accountId: 1001,
});

const kind = (d: FaultDecision) => (d.kind === 'fail' ? String(d.fault.status) : d.kind);

async function run(faults: FaultInjector, n: number, op?: FaultRequest['op']): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(kind(await faults.before(req(op))));
  return out;
}

describe('createFaultInjector', () => {
  it('injects nothing with an empty config', async () => {
    const faults = createFaultInjector({});
    expect(await run(faults, 20)).toEqual(Array(20).fill('none'));
    expect(faults.afterCommit(req())).toEqual({ kind: 'none' });
  });

  it('is reproducible: the same seed gives the same faults, another seed others', async () => {
    const config = { seed: 7, fail500: { rate: 0.3 } };
    const a = await run(createFaultInjector(config), 200);
    const b = await run(createFaultInjector(config), 200);
    const c = await run(createFaultInjector({ ...config, seed: 8 }), 200);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const hits = a.filter((k) => k === '500').length;
    expect(hits).toBeGreaterThan(40);
    expect(hits).toBeLessThan(80);
  });

  it('draws 500s exactly where the seeded PRNG falls below the rate', async () => {
    const next = mulberry32(3);
    const expected = Array.from({ length: 50 }, () => (next() < 0.2 ? '500' : 'none'));
    expect(await run(createFaultInjector({ seed: 3, fail500: { rate: 0.2 } }), 50)).toEqual(expected);
  });

  it('fails the burst-1 requests after a hit as well', async () => {
    const next = mulberry32(5);
    let first = 0;
    while (next() >= 0.05) first++;
    const got = await run(createFaultInjector({ seed: 5, fail500: { rate: 0.05, burst: 4 } }), first + 4);
    expect(got.slice(0, first)).toEqual(Array(first).fill('none'));
    expect(got.slice(first)).toEqual(['500', '500', '500', '500']);
  });

  it('applies a rule only to the operations it names', async () => {
    const faults = createFaultInjector({ fail500: { rate: 1, ops: ['createInvoicesBulk'] } });
    expect(await run(faults, 3, 'createTransactionsBulk')).toEqual(['none', 'none', 'none']);
    expect(await run(faults, 2, 'createInvoicesBulk')).toEqual(['500', '500']);
  });

  it('answers 429 from a per-partner token bucket with an integer Retry-After >= 1', async () => {
    let now = 0;
    const faults = createFaultInjector(
      { rateLimit: { capacity: 2, refillPerSecond: 0.5 } },
      { now: () => now },
    );
    expect(kind(await faults.before(req()))).toBe('none');
    expect(kind(await faults.before(req()))).toBe('none');
    const limited = await faults.before(req());
    expect(limited.kind === 'fail' && limited.fault.code).toBe('RATE_LIMITED');
    expect(limited.kind === 'fail' && limited.fault.headers['retry-after']).toBe('2');
    expect(kind(await faults.before(req('createTransactionsBulk', 'p2')))).toBe('none');
    now = 2000;
    expect(kind(await faults.before(req()))).toBe('none');
    expect(faults.injected()).toEqual({ '429': 1 });
  });

  it('plays a script in order, counting only matching requests', async () => {
    const faults = createFaultInjector({
      script: [
        { op: 'createTransactionsBulk', fault: '500', times: 2 },
        { fault: 'reset' },
        { fault: '429', retryAfterSeconds: 7 },
      ],
    });
    expect(kind(await faults.before(req('checkTransactionsExist')))).toBe('none');
    expect(await run(faults, 2)).toEqual(['500', '500']);
    expect(kind(await faults.before(req('checkTransactionsExist')))).toBe('reset');
    const limited = await faults.before(req());
    expect(limited.kind === 'fail' && limited.fault.headers['retry-after']).toBe('7');
    expect(await run(faults, 3)).toEqual(['none', 'none', 'none']);
  });

  it('applies commit-then steps only after a write was applied', async () => {
    const faults = createFaultInjector({
      script: [
        { op: 'createTransactionsBulk', fault: 'commit-then-500' },
        { fault: 'commit-then-reset' },
        { fault: '500' },
      ],
    });
    // before() never consumes a commit step: a request refused by validation leaves it in place.
    expect(kind(await faults.before(req()))).toBe('none');
    expect(kind(faults.afterCommit(req('createInvoicesBulk')))).toBe('none');
    expect(kind(faults.afterCommit(req()))).toBe('500');
    expect(kind(faults.afterCommit(req('createInvoicesBulk')))).toBe('reset');
    expect(kind(faults.afterCommit(req()))).toBe('none');
    expect(kind(await faults.before(req()))).toBe('500');
    expect(faults.injected()).toEqual({ 'commit-then-500': 1, 'commit-then-reset': 1, '500': 1 });
  });

  it('never fails a read after commit, and honours the commitThenFail mode', () => {
    const faults = createFaultInjector({ commitThenFail: { rate: 1, mode: 'reset' } });
    expect(kind(faults.afterCommit(req('listTransactions')))).toBe('none');
    expect(kind(faults.afterCommit(req()))).toBe('reset');
  });

  it('drops connections before the handler with the reset rate', async () => {
    expect(await run(createFaultInjector({ reset: { rate: 1 } }), 2)).toEqual(['reset', 'reset']);
  });

  it('delays by latency plus jitter', async () => {
    const faults = createFaultInjector({ latency: { ms: 40, jitterMs: 20 } });
    const started = performance.now();
    await faults.before(req());
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(39);
    expect(elapsed).toBeLessThan(200);
  });

  it('replaces its config at runtime and resets to the start-up config', async () => {
    const faults = createFaultInjector({ script: [{ fault: '500' }] });
    faults.configure(parseFaultConfig({ reset: { rate: 1 } }, 'test'));
    expect(await run(faults, 1)).toEqual(['reset']);
    faults.reset();
    expect(faults.config().reset).toBeUndefined();
    expect(await run(faults, 2)).toEqual(['500', 'none']);
    expect(faults.injected()).toEqual({ '500': 1 });
  });

  it('rejects a bad config naming the field and the source', () => {
    expect(() => parseFaultConfig({ fail500: { rate: 2 } }, 'faults.yaml')).toThrow(
      /invalid fault config faults.yaml:\n {2}fail500\.rate: /,
    );
    expect(() => parseFaultConfig({ script: [{ op: 'noSuchOp', fault: '500' }] }, 'x')).toThrow(
      /script\.0\.op/,
    );
    expect(() => parseFaultConfig({ typo: 1 }, 'x')).toThrow(/typo/);
  });
});
