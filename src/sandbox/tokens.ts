import { randomBytes } from 'node:crypto';
import type { ClientRecord } from './state.js';

interface IssuedToken {
  clientId: string;
  expiresAt: number;
}

/** Opaque bearer tokens that really expire after `lifetimeSeconds` of sandbox-clock time. */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly lifetimeSeconds: number) {}

  issue(
    client: ClientRecord,
    now: number,
  ): { access_token: string; token_type: 'Bearer'; expires_in: number } {
    this.sweep(now);
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { clientId: client.clientId, expiresAt: now + this.lifetimeSeconds * 1000 });
    return { access_token: token, token_type: 'Bearer', expires_in: this.lifetimeSeconds };
  }

  /** The client id behind a live token, or undefined when unknown or expired. */
  clientIdOf(token: string, now: number): string | undefined {
    const issued = this.tokens.get(token);
    if (!issued || issued.expiresAt <= now) return undefined;
    return issued.clientId;
  }

  /** Every token issued and not swept yet: tests look for them where they must not appear. */
  issued(): string[] {
    return [...this.tokens.keys()];
  }

  private sweep(now: number): void {
    if (this.tokens.size < 10_000) return;
    for (const [token, issued] of this.tokens) if (issued.expiresAt <= now) this.tokens.delete(token);
  }
}
