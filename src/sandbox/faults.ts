import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpMethod, OperationName } from '../contract/index.js';
import { SandboxFault } from './fault.js';
import { KeyedBuckets } from './faults-bucket.js';
import {
  type FaultConfig,
  type FaultConfigInput,
  parseFaultConfig,
  type ScriptedFault,
  type ScriptStep,
} from './faults-config.js';
import { mulberry32 } from './faults-random.js';

export { FaultConfig, type FaultConfigInput, parseFaultConfig } from './faults-config.js';

/** What the fault injector decides for one request. */
export type FaultDecision = { kind: 'none' } | { kind: 'fail'; fault: SandboxFault } | { kind: 'reset' };

export interface FaultRequest {
  op: OperationName;
  method: HttpMethod;
  partnerId: string;
  accountId: number | undefined;
  /** The request as an echoing fault quotes it (Authorization header and body); built only then. */
  echoed?: () => string;
}

/**
 * Fault injection seam of the router. `before` runs after authentication and before the handler
 * (latency, a 500, a 429 from the partner's token bucket, a dropped connection); `afterCommit` runs
 * after a write has changed the state ("commit then fail": answer 500 or drop the connection anyway).
 */
export interface FaultInjector {
  before(request: FaultRequest): Promise<FaultDecision>;
  afterCommit(request: FaultRequest): FaultDecision;
  /** The token endpoint's seam (only the `echo` rule applies there); absent = no faults. */
  beforeToken?(request: Pick<FaultRequest, 'echoed'>): FaultDecision;
}

export const NO_FAULTS: FaultInjector = {
  before: async () => ({ kind: 'none' }),
  afterCommit: () => ({ kind: 'none' }),
};

/** The injector behind the --faults file and /_sandbox/faults: its config can be read and replaced at runtime. */
export interface ConfigurableFaults extends FaultInjector {
  config(): FaultConfig;
  /** Replaces the config; PRNG, buckets, burst and script start afresh. */
  configure(config: FaultConfig): void;
  /** Back to the config the injector was created with (what POST /_sandbox/reset does). */
  reset(): void;
  /** Time source of the token buckets; the runtime binds its sandbox clock so tests can advance it. */
  useClock(now: () => number): void;
  /** Faults injected so far, by kind ('500', '429', 'reset', 'commit-then-500', 'commit-then-reset', 'echo', 'delay'). */
  injected(): Record<string, number>;
}

export function isConfigurableFaults(faults: FaultInjector): faults is ConfigurableFaults {
  return 'configure' in faults && typeof faults.configure === 'function';
}

export interface FaultDeps {
  /** Clock of the token buckets (ms); Date.now unless the runtime binds its sandbox clock. */
  now?: () => number;
}

const NONE: FaultDecision = { kind: 'none' };
const matches = (ops: readonly OperationName[] | undefined, op: OperationName) => !ops || ops.includes(op);

function internalError(why: string): SandboxFault {
  return new SandboxFault(500, 'INTERNAL_ERROR', `Unexpected server error (sandbox fault injection: ${why})`);
}

function gatewayError(status: number, code: string): SandboxFault {
  return new SandboxFault(
    status,
    code,
    `${code} (sandbox fault injection: a gateway failed, nothing applied)`,
  );
}

function rateLimited(retryAfterSeconds: number): SandboxFault {
  return new SandboxFault(
    429,
    'RATE_LIMITED',
    `Too many requests; retry after ${retryAfterSeconds} s`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  );
}

class SeededFaults implements ConfigurableFaults {
  private current!: FaultConfig;
  private random!: () => number;
  private buckets: KeyedBuckets | undefined;
  private script: { step: ScriptStep; left: number }[] = [];
  private burstLeft = 0;
  private readonly counts = new Map<string, number>();
  private now: () => number;

  constructor(
    private readonly initial: FaultConfig,
    deps: FaultDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.configure(initial);
  }

  config(): FaultConfig {
    return this.current;
  }

  configure(config: FaultConfig): void {
    this.current = config;
    this.random = mulberry32(config.seed);
    this.buckets = config.rateLimit
      ? new KeyedBuckets(config.rateLimit.capacity, config.rateLimit.refillPerSecond)
      : undefined;
    this.script = config.script.map((step) => ({ step, left: step.times }));
    this.burstLeft = 0;
  }

  reset(): void {
    this.configure(this.initial);
    this.counts.clear();
  }

  useClock(now: () => number): void {
    this.now = now;
  }

  injected(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  async before(request: FaultRequest): Promise<FaultDecision> {
    const { latency } = this.current;
    if (latency && matches(latency.ops, request.op)) {
      const ms = latency.ms + (latency.jitterMs > 0 ? this.random() * latency.jitterMs : 0);
      if (ms > 0) await sleep(ms);
    }
    // Read the config after the sleep: a PUT /_sandbox/faults during the wait applies at once.
    const scripted = this.takeScripted(request, 'before');
    if (scripted?.fault === 'delay') {
      this.count('delay');
      // Real time, like latency: the client's timeouts are real time too. The handler then runs
      // and commits whether or not the client is still connected.
      if (scripted.delayMs > 0) await sleep(scripted.delayMs);
      return NONE;
    }
    if (scripted) return this.decide(scripted.fault, scripted.retryAfterSeconds);
    const echo = this.echoing(request.op, request.echoed);
    if (echo) return echo;

    const { rateLimit, reset, fail500 } = this.current;
    if (this.buckets && rateLimit && matches(rateLimit.ops, request.op)) {
      const taken = this.buckets.take(request.partnerId, this.now());
      if (!taken.ok) return this.decide('429', taken.retryAfterSeconds);
    }
    if (reset && matches(reset.ops, request.op) && this.random() < reset.rate) return this.decide('reset');
    if (fail500 && matches(fail500.ops, request.op)) {
      if (this.burstLeft > 0) {
        this.burstLeft--;
        return this.decide('500');
      }
      if (this.random() < fail500.rate) {
        this.burstLeft = fail500.burst - 1;
        return this.decide('500');
      }
    }
    return NONE;
  }

  afterCommit(request: FaultRequest): FaultDecision {
    if (request.method === 'GET') return NONE;
    const scripted = this.takeScripted(request, 'commit');
    // Only commit-then-* steps are taken in this phase (takeScripted), never 'delay'.
    if (scripted && scripted.fault !== 'delay') return this.decide(scripted.fault);
    const { commitThenFail } = this.current;
    if (commitThenFail && matches(commitThenFail.ops, request.op) && this.random() < commitThenFail.rate) {
      return this.decide(commitThenFail.mode === '500' ? 'commit-then-500' : 'commit-then-reset');
    }
    return NONE;
  }

  beforeToken(request: Pick<FaultRequest, 'echoed'>): FaultDecision {
    return this.echoing('token', request.echoed) ?? NONE;
  }

  /** The `echo` rule's answer for `target`, quoting the request; undefined when it does not apply. */
  private echoing(
    target: OperationName | 'token',
    echoed: (() => string) | undefined,
  ): FaultDecision | undefined {
    const { echo } = this.current;
    if (!echo?.on.includes(target)) return undefined;
    this.counts.set('echo', (this.counts.get('echo') ?? 0) + 1);
    const text = echoed?.() ?? '';
    const code = echo.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_REQUEST';
    return {
      kind: 'fail',
      fault: new SandboxFault(echo.status, code, `Cannot process the request: ${text}`, [
        { field: 'request', message: `received ${text}` },
      ]),
    };
  }

  /** The head step of the script, if it applies to this request in this phase; steps run strictly in order. */
  private takeScripted(request: FaultRequest, phase: 'before' | 'commit'): ScriptStep | undefined {
    const head = this.script[0];
    if (!head) return undefined;
    const commitStep = head.step.fault.startsWith('commit-then-');
    if (commitStep !== (phase === 'commit')) return undefined;
    if (head.step.op && head.step.op !== request.op) return undefined;
    head.left--;
    if (head.left === 0) this.script.shift();
    return head.step;
  }

  private count(fault: ScriptedFault): void {
    this.counts.set(fault, (this.counts.get(fault) ?? 0) + 1);
  }

  private decide(fault: Exclude<ScriptedFault, 'delay'>, retryAfterSeconds = 1): FaultDecision {
    this.count(fault);
    switch (fault) {
      case '500':
        return { kind: 'fail', fault: internalError('500') };
      case 'commit-then-500':
        return { kind: 'fail', fault: internalError('500 after the write was applied') };
      case '429':
        return { kind: 'fail', fault: rateLimited(retryAfterSeconds) };
      case '502':
        return { kind: 'fail', fault: gatewayError(502, 'BAD_GATEWAY') };
      case '503':
        return { kind: 'fail', fault: gatewayError(503, 'SERVICE_UNAVAILABLE') };
      case '504':
        return { kind: 'fail', fault: gatewayError(504, 'GATEWAY_TIMEOUT') };
      case 'reset':
      case 'commit-then-reset':
        return { kind: 'reset' };
    }
  }
}

/**
 * A fault injector driven by a FaultConfig (validated; throws naming the bad fields). Randomness is
 * seeded, so a test or benchmark that replays the same requests sees the same faults.
 */
export function createFaultInjector(
  config: FaultConfigInput | FaultConfig = {},
  deps: FaultDeps = {},
): ConfigurableFaults {
  return new SeededFaults(parseFaultConfig(config, '(createFaultInjector)'), deps);
}
