/** Exit codes of `erp-bridge sync` (a public contract: scripts depend on them). */
export const EXIT = {
  /** Every record created, updated or skipped. */
  OK: 0,
  /** Some records rejected or failed (see the report). */
  RECORDS_NOT_SYNCED: 1,
  /** Invalid feed or configuration. */
  INVALID_CONFIG: 2,
  /** The service could not be reached or refused the credentials. */
  SERVICE_UNAVAILABLE: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
