import { type FaultInjector, isConfigurableFaults } from './faults.js';
import type { Seed } from './seed.js';
import { buildState } from './seed.js';
import { bindSso, SsoIssuer, type SsoOptions } from './sso.js';
import type { SandboxState } from './state.js';
import { SandboxStats } from './stats.js';
import { TokenStore } from './tokens.js';

/** The sandbox clock: real time plus an offset that tests can advance (token expiry, 30-day rules). */
export class SandboxClock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** One answered partner API call, for tests that need the order and timing of requests. */
export interface SandboxRequestEvent {
  /** When the request arrived (epoch ms, real time), and when it was answered or dropped. */
  at: number;
  doneAt: number;
  operation: string;
  accountId?: number;
  /** HTTP status; 0 when the sandbox dropped the connection on purpose. */
  status: number;
}

export interface RuntimeOptions {
  sso?: SsoOptions;
  /** Told of every partner API call once it is answered (not of token or admin requests). */
  onRequest?: (event: SandboxRequestEvent) => void;
}

/**
 * Mutable server-wide state. reset() brings the sandbox back to how it started: state and access
 * tokens rebuilt from the seed, stats cleared, minted init tokens and SSO rate buckets forgotten,
 * and a configurable fault injector back to its start-up config. The clock offset is kept (time
 * does not run backwards) and so is the SSO key pair.
 */
export class SandboxRuntime {
  state: SandboxState;
  tokens: TokenStore;
  readonly stats = new SandboxStats();
  readonly clock = new SandboxClock();
  readonly sso: SsoIssuer;
  readonly onRequest: ((event: SandboxRequestEvent) => void) | undefined;
  private faultInjector!: FaultInjector;

  constructor(
    readonly seed: Seed,
    faults: FaultInjector,
    options: RuntimeOptions = {},
  ) {
    this.faults = faults;
    this.sso = new SsoIssuer(options.sso);
    this.onRequest = options.onRequest;
    this.state = buildState(seed);
    bindSso(this.state, this.sso);
    this.tokens = new TokenStore(seed.tokenLifetimeSeconds);
  }

  get faults(): FaultInjector {
    return this.faultInjector;
  }

  /** Installs an injector; a configurable one takes its token-bucket time from the sandbox clock. */
  set faults(injector: FaultInjector) {
    if (isConfigurableFaults(injector)) injector.useClock(() => this.clock.now());
    this.faultInjector = injector;
  }

  reset(): void {
    this.state = buildState(this.seed);
    bindSso(this.state, this.sso);
    this.tokens = new TokenStore(this.seed.tokenLifetimeSeconds);
    this.stats.reset();
    this.sso.reset();
    if (isConfigurableFaults(this.faults)) this.faults.reset();
  }
}
