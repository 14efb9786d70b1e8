/**
 * Names of the fleet's queues and of erp-bridge's own keys. Every key starts with the configured
 * prefix, BullMQ's included, so one prefix (a hash tag such as {erp-bridge} on Redis Cluster)
 * keeps all of them in one slot: the Lua scripts touch several keys at once.
 */
export const QUEUES = {
  /** Scheduler ticks: run the producer for one feed file. */
  ticks: 'ticks',
  /** One job per import run (a file): reads it and adds chunk jobs as its children. */
  imports: 'imports',
  /** One job per chunk of at most 1000 records. */
  chunks: 'chunks',
  /** One job per `reconcile --fleet` of a feed (reconcile-job.ts). */
  reconciles: 'reconciles',
} as const;

export function fleetKeys(prefix: string) {
  const k = (...parts: (string | number)[]) => [prefix, 'eb', ...parts].join(':');
  return {
    run: (runId: string) => k('run', runId),
    runOutcomes: (runId: string) => k('run', runId, 'out'),
    /** The externalIds a run has claimed (first sightings, run-store.ts claimExternalIds). */
    runIds: (runId: string) => k('run', runId, 'ids'),
    /** A short claim on creating one (account, kind, externalId), by its hash (create-claims.ts). */
    createClaim: (hash: string) => k('claim', hash),
    runs: () => k('runs'),
    /** The last finished run of each tenant x feed (latest-of-each.ts: the console's overview). */
    latestRuns: () => k('latest', 'runs'),
    /** Runs under way: field `<feed>\0<runId>`, value `<start ms> <accountId>` (the console's overview). */
    runningRuns: () => k('running'),
    /** A fleet reconcile's summary (reconcile-store.ts). */
    reconcile: (reconcileId: string) => k('reconcile', reconcileId),
    /** The last finished reconcile of each tenant x feed (latest-of-each.ts: the console's overview). */
    latestReconciles: () => k('latest', 'reconciles'),
    /** Its lines that are not equal, in deflated batches, in the order the comparison wrote them. */
    reconcileLines: (reconcileId: string) => k('reconcile', reconcileId, 'lines'),
    runsOfFeed: (feed: string) => k('runs', feed),
    files: (feed: string) => k('files', feed),
    /** Per feed with source.expectEvery: when new exports were seen (freshness.ts). */
    freshness: () => k('freshness'),
    /** The records of one queued chunk job (chunk-records.ts). */
    chunkRecords: (jobId: string) => k('chunk', jobId, 'records'),
    /** Each feed's health (src/ops/alerts): `failing:<feed>` and `dropped:<feed>` fields. */
    feedHealth: () => k('health'),
    /** Record counts of a feed's recent runs, newest first (the record-count drop rule). */
    feedRecords: (feed: string) => k('health', 'records', feed),
    /** A feed's identity settings (src/sync/identity): what its derived IDs depend on. */
    feedIdentity: (feed: string) => k('identity', feed),
    /** A database feed's cursor position (issue 29, cursor-store.ts). */
    feedCursor: (feed: string) => k('cursor', feed),
    /** The run importing a database feed now, if any: one at a time (file-registry.ts). */
    feedImport: (feed: string) => k('importing', feed),
  };
}
export type FleetKeys = ReturnType<typeof fleetKeys>;
