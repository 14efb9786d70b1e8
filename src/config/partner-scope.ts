/**
 * The `accountId` of a feed, chunk and run of a partner-scope kind (accounts): no customer account,
 * so the gate, create claims and reports key the partner's own records under 0, an id no customer
 * account has (int64 ids are positive).
 */
export const PARTNER_SCOPE = 0;
