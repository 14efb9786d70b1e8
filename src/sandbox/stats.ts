/** Status recorded for a request whose connection the sandbox dropped on purpose (fault 'reset'). */
export const DROPPED = 0;

export interface StatsSnapshot {
  /** Requests by operation, then by HTTP status; a dropped connection counts under 'reset'. */
  requests: Record<string, Record<string, number>>;
  maxConcurrentByAccount: Record<string, number>;
  inFlightByAccount: Record<string, number>;
  /** CPU of the sandbox process since it started (µs, process.cpuUsage()): benchmarks diff two snapshots. */
  cpu: { user: number; system: number };
}

/** Request counts by operation and status, and the peak of concurrent requests per account. */
export class SandboxStats {
  private readonly counts = new Map<string, Map<number, number>>();
  private readonly inFlight = new Map<number, number>();
  private readonly maxInFlight = new Map<number, number>();

  begin(accountId: number | undefined): void {
    if (accountId === undefined) return;
    const now = (this.inFlight.get(accountId) ?? 0) + 1;
    this.inFlight.set(accountId, now);
    if (now > (this.maxInFlight.get(accountId) ?? 0)) this.maxInFlight.set(accountId, now);
  }

  end(accountId: number | undefined, operation: string, status: number): void {
    if (accountId !== undefined) this.inFlight.set(accountId, (this.inFlight.get(accountId) ?? 1) - 1);
    const byStatus = this.counts.get(operation) ?? new Map<number, number>();
    this.counts.set(operation, byStatus);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  snapshot(): StatsSnapshot {
    const requests: Record<string, Record<string, number>> = {};
    for (const [op, byStatus] of this.counts) {
      requests[op] = Object.fromEntries(
        [...byStatus].map(([s, n]) => [s === DROPPED ? 'reset' : String(s), n]),
      );
    }
    const { user, system } = process.cpuUsage();
    return {
      requests,
      maxConcurrentByAccount: Object.fromEntries([...this.maxInFlight].map(([a, n]) => [String(a), n])),
      inFlightByAccount: Object.fromEntries([...this.inFlight].map(([a, n]) => [String(a), n])),
      cpu: { user, system },
    };
  }

  reset(): void {
    this.counts.clear();
    this.maxInFlight.clear();
    // Requests still in flight keep counting towards the new peak.
    for (const [account, n] of this.inFlight) this.maxInFlight.set(account, n);
  }
}
