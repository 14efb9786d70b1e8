/** Numeric limits of the spec ("Limits" table and field tables), in one place. */
export const LIMITS = {
  accessTokenLifetimeSeconds: 3600,
  initTokenLifetimeSeconds: { min: 30, max: 60 },
  page: { defaultPage: 0, defaultPageSize: 50, minPageSize: 1, maxPageSize: 1000 },
  /** Items per bulk invoice / bulk transaction request, and external IDs per existence check. */
  bulkItems: { min: 1, max: 1000 },
  /** Repeatable `externalId` filter of the invoice list. */
  externalIdFilter: { maxValues: 100, maxLength: 255 },
  /** Assumption (not shown): transaction externalId length, same as the invoice filter values. */
  externalIdMaxLength: 255,
  planName: { min: 1, max: 100 },
  /** Plans, invoices and (assumption) transactions. */
  amount: { min: -10_000_000_000_000_000, max: 10_000_000_000_000_000 },
  balanceReference: { min: -1_000_000_000_000, max: 1_000_000_000_000 },
  bankNameMaxLength: 255,
  providerConversionDays: 30,
} as const;
