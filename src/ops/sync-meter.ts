import type { SyncMeter } from '../sync/meter.js';
import type { Metrics } from './metrics.js';

/** The sync engine's meter port as Prometheus metrics: records by outcome, kind and tenant; chunk durations. */
export function syncMeter(metrics: Metrics): SyncMeter {
  return {
    recorded: (kind, accountId, outcomes) => {
      const tenant = String(accountId);
      const counts = new Map<string, number>();
      for (const { outcome } of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      for (const [outcome, n] of counts) metrics.records.inc({ outcome, kind, tenant }, n);
    },
    chunkSynced: (kind, accountId, seconds) =>
      metrics.chunkDuration.observe({ kind, tenant: String(accountId) }, seconds),
  };
}
