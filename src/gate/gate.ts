/**
 * The gate admits work per tenant: at most `limit` chunks of one tenant in flight, and no request
 * of a paused scope (a 429's Retry-After) until the pause ends. One interface, two
 * implementations: in memory (one process, `erp-bridge sync`) and Redis (the worker fleet).
 */
/** The gate's tenant for chunks of one customer account (X-Account-Id), in both runners. */
export const tenantKey = (accountId: number) => `account:${accountId}`;

/** The account id of a gate tenant made by tenantKey (e.g. for a metrics label). */
export const accountOfTenant = (tenant: string) => tenant.replace(/^account:/, '');

export interface Lease {
  release(): Promise<void>;
}

export interface TenantGate {
  /** A slot now, or undefined when the tenant is at its limit (the fleet then delays the job). */
  tryAcquire(tenant: string, limit: number): Promise<Lease | undefined>;
  /** Waits for a slot, in arrival order. */
  acquire(tenant: string, limit: number, signal?: AbortSignal): Promise<Lease>;
  /** Pauses a scope (e.g. the partner credentials) until the given epoch millis; pauses only extend. */
  pause(scope: string, untilMs: number): Promise<void>;
  /** Resolves once the scope is not paused. */
  waitUntilOpen(scope: string, signal?: AbortSignal): Promise<void>;
}
