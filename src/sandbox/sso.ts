import { generateKeyPair, type KeyObject, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { LIMITS } from '../contract/index.js';
import { KeyedBuckets } from './faults-bucket.js';
import { type JsonObject, rsaThumbprint, signRs256 } from './jwt.js';
import type { SandboxState } from './state.js';

export interface SsoOptions {
  /** Init-token lifetime in seconds; the spec allows 30 to 60. Default 60. */
  lifetimeSeconds?: number;
  /** `aud` claim: the embedded application's identifier. Default 'embedded-app'. */
  audience?: string;
  /** `iss` claim; default: the sandbox's {auth_url}, set once the server listens. */
  issuer?: string;
  /** Init-token rate per partner (token bucket). Default: 10 at once, refilled 1 per second (10 per 10 s). */
  rateLimit?: { capacity: number; refillPerSecond: number };
}

export interface SsoKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

/** What the sandbox remembers of each init token it minted: expiry and whether it was exchanged. */
export interface MintedToken {
  exp: number;
  consumed: boolean;
}

export const DEFAULT_SSO = {
  lifetimeSeconds: 60,
  audience: 'embedded-app',
  issuer: 'http://sandbox.invalid',
  rateLimit: { capacity: 10, refillPerSecond: 1 },
} as const;

const generateRsa = promisify(generateKeyPair);

/**
 * Mints RS256 init tokens for POST /authentication/sso/init and remembers them (by jti) so the
 * embedded exchange can enforce single use. Keys are generated lazily, off the event loop: an RSA
 * key costs ~0.4 s of CPU and most sandboxes (one per error-table row) never mint a token.
 */
export class SsoIssuer {
  readonly lifetimeSeconds: number;
  readonly audience: string;
  issuer: string;
  private readonly buckets: KeyedBuckets;
  private keyPair: Promise<SsoKeys> | undefined;
  /** jti -> minted token; cleared on reset, so a token minted before a reset no longer exchanges. */
  readonly minted = new Map<string, MintedToken>();

  constructor(options: SsoOptions = {}) {
    const lifetime = options.lifetimeSeconds ?? DEFAULT_SSO.lifetimeSeconds;
    const { min, max } = LIMITS.initTokenLifetimeSeconds;
    if (!Number.isInteger(lifetime) || lifetime < min || lifetime > max) {
      throw new Error(`sso.lifetimeSeconds must be an integer from ${min} to ${max} (spec), got ${lifetime}`);
    }
    this.lifetimeSeconds = lifetime;
    this.audience = options.audience ?? DEFAULT_SSO.audience;
    this.issuer = options.issuer ?? DEFAULT_SSO.issuer;
    const rate = options.rateLimit ?? DEFAULT_SSO.rateLimit;
    this.buckets = new KeyedBuckets(rate.capacity, rate.refillPerSecond);
  }

  keys(): Promise<SsoKeys> {
    this.keyPair ??= generateRsa('rsa', { modulusLength: 2048 }).then(({ privateKey, publicKey }) => ({
      privateKey,
      publicKey,
      kid: rsaThumbprint(publicKey),
    }));
    return this.keyPair;
  }

  /** Takes one init-token slot of the partner; returns the Retry-After seconds when none is left. */
  throttle(partnerId: string, now: number): number | undefined {
    const taken = this.buckets.take(partnerId, now);
    return taken.ok ? undefined : taken.retryAfterSeconds;
  }

  async mint(input: { partnerId: string; accountId: number; userId: number; now: number }): Promise<{
    initToken: string;
    expiresIn: number;
    expiresAt: string;
  }> {
    const { privateKey, kid } = await this.keys();
    const iat = Math.floor(input.now / 1000);
    const exp = iat + this.lifetimeSeconds;
    const jti = randomUUID();
    const claims: JsonObject = {
      iss: this.issuer,
      aud: this.audience,
      sub: String(input.userId),
      accountId: input.accountId,
      partnerId: input.partnerId,
      iat,
      exp,
      jti,
    };
    const initToken = signRs256(claims, privateKey, kid);
    this.remember(jti, exp, input.now);
    return { initToken, expiresIn: this.lifetimeSeconds, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** Signs arbitrary claims with the sandbox key: tests use it to forge wrong-audience tokens. */
  async signClaims(claims: JsonObject): Promise<string> {
    const { privateKey, kid } = await this.keys();
    return signRs256(claims, privateKey, kid);
  }

  /** Forgets minted tokens and rate-limit buckets; the key pair survives (generating one is slow). */
  reset(): void {
    this.minted.clear();
    this.buckets.clear();
  }

  private remember(jti: string, exp: number, now: number): void {
    // Bounded memory for long-running sandboxes: drop tokens expired for over an hour.
    if (this.minted.size >= 100_000) {
      for (const [id, token] of this.minted) if (token.exp * 1000 + 3_600_000 < now) this.minted.delete(id);
    }
    this.minted.set(jti, { exp, consumed: false });
  }
}

/**
 * Handlers only see the state, not the runtime; the runtime binds its issuer to each state it builds
 * (construction and every reset) so the ssoInit handler can find it without widening the frame.
 */
const issuers = new WeakMap<SandboxState, SsoIssuer>();

export function bindSso(state: SandboxState, issuer: SsoIssuer): void {
  issuers.set(state, issuer);
}

export function ssoOf(state: SandboxState): SsoIssuer {
  const issuer = issuers.get(state);
  if (!issuer) throw new Error('no SSO issuer is bound to this sandbox state');
  return issuer;
}
