/**
 * The gate admits work per tenant: at most `limit` chunks of one tenant in flight, and no request
 * of a paused scope (a 429's Retry-After) until the pause ends. Two implementations: in memory (one
 * process, `erp-bridge sync`), which also waits for a slot, and Redis (the worker fleet), whose
 * chunks wait in BullMQ's delayed set instead and are woken through the gate's waiter list.
 */
/** The gate's tenant for chunks of one customer account (X-Account-Id), in both runners. */
export const tenantKey = (accountId: number) => `account:${accountId}`;

/** The account id of a gate tenant made by tenantKey (e.g. for a metrics label). */
export const accountOfTenant = (tenant: string) => tenant.replace(/^account:/, '');

export interface Lease {
  release(): Promise<void>;
}

/** What the client hooks need (client-hooks.ts): pauses per scope, e.g. the partner credentials. */
export interface ScopePauses {
  /** Pauses a scope until the given epoch millis; pauses only extend. */
  pause(scope: string, untilMs: number): Promise<void>;
  /** Resolves once the scope is not paused. */
  waitUntilOpen(scope: string, signal?: AbortSignal): Promise<void>;
}

/** What both gates offer: a slot now or none, and the pauses. */
export interface TenantGate extends ScopePauses {
  /** A slot now, or undefined when the tenant is at its limit. */
  tryAcquire(tenant: string, limit: number): Promise<Lease | undefined>;
}

/** The in-process runner's gate: waits for a slot, in arrival order. */
export interface WaitingGate extends TenantGate {
  acquire(tenant: string, limit: number, signal?: AbortSignal): Promise<Lease>;
}

/**
 * The fleet's gate: a caller without a slot does not wait here (a chunk job waits in BullMQ's
 * delayed set, holding no worker slot) but registers as a waiter of the tenant, and whoever frees
 * a slot takes the next waiter off the list and wakes it.
 */
export interface FleetGate extends TenantGate {
  /** Puts a waiter (e.g. a job id) at the back of the tenant's list (again: moves it to the back). */
  addWaiter(tenant: string, waiter: string): Promise<void>;
  /** Takes a waiter off the tenant's list (it got a slot, or gave up). */
  removeWaiter(tenant: string, waiter: string): Promise<void>;
  /** Takes the longest-registered waiter off the tenant's list; undefined when there is none. */
  popWaiter(tenant: string): Promise<string | undefined>;
}
