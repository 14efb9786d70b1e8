import { describe, expect, it } from 'vitest';
import {
  isIdempotent,
  isRetryableStatus,
  maxRetries,
  RATE_LIMIT_DEFAULTS,
  RETRY_POLICY,
  retryAfterMs,
  retryDelayMs,
} from '../../../src/client/retry-policy.js';
import { OPERATIONS } from '../../../src/contract/index.js';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const policy = { defaultMs: 5_000, maxMs: 300_000 };

describe('retryDelayMs (spec: wait 1, 2, then 4 seconds)', () => {
  it('waits exactly 1 s, 2 s, 4 s for retries 1, 2, 3', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n))).toEqual([1_000, 2_000, 4_000]);
  });

  it('has nothing after the third retry, nor for nonsense retry numbers', () => {
    expect(retryDelayMs(4)).toBeUndefined();
    expect(retryDelayMs(0)).toBeUndefined();
    expect(retryDelayMs(-1)).toBeUndefined();
    expect(retryDelayMs(1.5)).toBeUndefined();
    expect(maxRetries()).toBe(3);
  });

  it('follows a policy given as data', () => {
    const custom = { retryStatuses: [500], delaysMs: [10, 20] };
    expect([1, 2, 3].map((n) => retryDelayMs(n, custom))).toEqual([10, 20, undefined]);
  });
});

describe('isRetryableStatus (spec: retry only 500)', () => {
  it.each([500])('retries %i', (status) => expect(isRetryableStatus(status)).toBe(true));
  it.each([400, 401, 403, 404, 409, 429, 501, 502, 503])('does not retry %i', (status) =>
    expect(isRetryableStatus(status)).toBe(false),
  );
  it('is plain data', () => expect(RETRY_POLICY.retryStatuses).toEqual([500]));
  it.each([500, 502, 503, 504])('retries %i for a read (idempotent operation)', (status) =>
    expect(isRetryableStatus(status, RETRY_POLICY, true)).toBe(true),
  );
  it.each([400, 404, 429, 501])('does not retry %i for a read', (status) =>
    expect(isRetryableStatus(status, RETRY_POLICY, true)).toBe(false),
  );
});

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs('7', NOW, policy)).toBe(7_000);
    expect(retryAfterMs(' 12 ', NOW, policy)).toBe(12_000);
    expect(retryAfterMs('0', NOW, policy)).toBe(0);
  });

  it('reads an IMF-fixdate HTTP-date relative to now', () => {
    expect(retryAfterMs('Wed, 01 Jan 2030 12:00:30 GMT', NOW, policy)).toBe(30_000);
  });

  it('reads the obsolete RFC 850 and asctime date forms', () => {
    expect(retryAfterMs('Tuesday, 01-Jan-30 12:00:10 GMT', NOW, policy)).toBe(10_000);
    // asctime has no zone and means GMT whatever the local time zone is.
    expect(retryAfterMs('Tue Jan  1 12:00:20 2030', NOW, policy)).toBe(20_000);
  });

  it('uses the default when the header is missing, empty or unparsable', () => {
    for (const header of [undefined, '', '   ', 'soon', '1.5', '5s', 'Funday, 01 Jan 2030 12:00:30 GMT']) {
      expect(retryAfterMs(header, NOW, policy), String(header)).toBe(5_000);
    }
  });

  it('uses the default for a negative delay or a date already past (clock skew)', () => {
    expect(retryAfterMs('-5', NOW, policy)).toBe(5_000);
    expect(retryAfterMs('Wed, 01 Jan 2030 11:59:00 GMT', NOW, policy)).toBe(5_000);
  });

  it('caps an absurd delay or date at the maximum', () => {
    expect(retryAfterMs('86400000', NOW, policy)).toBe(300_000);
    expect(retryAfterMs('99999999999999999999999', NOW, policy)).toBe(300_000);
    expect(retryAfterMs('Fri, 01 Jan 2100 00:00:00 GMT', NOW, policy)).toBe(300_000);
  });

  it('takes the first of repeated headers', () => {
    expect(retryAfterMs(['3', '9'], NOW, policy)).toBe(3_000);
  });

  it('documents its defaults: 5 s default, 300 s cap', () => {
    expect(retryAfterMs(undefined, NOW)).toBe(RATE_LIMIT_DEFAULTS.defaultMs);
    expect(RATE_LIMIT_DEFAULTS).toMatchObject({ defaultMs: 5_000, maxMs: 300_000 });
  });
});

describe('isIdempotent', () => {
  it('treats GETs and the existence check (a read sent as POST) as resendable', () => {
    expect(isIdempotent(OPERATIONS.listInvoices)).toBe(true);
    expect(isIdempotent(OPERATIONS.verifyAuth)).toBe(true);
    expect(isIdempotent(OPERATIONS.checkTransactionsExist)).toBe(true);
  });

  it('treats every write as not resendable', () => {
    for (const name of [
      'createTransactionsBulk',
      'createInvoicesBulk',
      'createPlansBulk',
      'updateInvoice',
      'deleteInvoice',
      'ssoInit',
    ] as const) {
      expect(isIdempotent(OPERATIONS[name]), name).toBe(false);
    }
  });
});
