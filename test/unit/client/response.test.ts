import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/client/errors.js';
import { parseSuccess, readErrorBody, serviceError } from '../../../src/client/response.js';
import type { HttpResponse } from '../../../src/client/transport.js';
import { thrownBy } from '../../support/thrown.js';

const ok = (text: string, status = 200): HttpResponse => ({ status, headers: {}, text, durationMs: 1 });
const read = { operation: 'listScenarios', accountId: 9, idempotent: true, attempts: 1 };
const write = { operation: 'createInvoicesBulk', accountId: 9, idempotent: false, attempts: 1 };
const noScrub = (t: string) => t;

const thrown = (fn: () => unknown) => thrownBy(ApiError, fn);

describe('readErrorBody', () => {
  it('reads ExceptionDetails with causes', () => {
    const body = readErrorBody(
      JSON.stringify({
        timestamp: 1,
        error: 'INVALID_REQUEST',
        message: 'bad',
        causes: [{ index: 2, field: 'amount' }],
      }),
    );
    expect(body).toEqual({
      code: 'INVALID_REQUEST',
      message: 'bad',
      causes: [{ index: 2, field: 'amount' }],
    });
  });

  it('is tolerant: no timestamp, odd causes', () => {
    expect(readErrorBody(JSON.stringify({ error: 'X_NEW_CODE', causes: 'nope' }))).toEqual({
      code: 'X_NEW_CODE',
      message: undefined,
      causes: [],
    });
  });

  it('yields nothing usable from a non-JSON or non-object body', () => {
    expect(readErrorBody('<html>Bad gateway</html>')).toEqual({
      code: undefined,
      message: undefined,
      causes: [],
    });
    expect(readErrorBody('42')).toEqual({ code: undefined, message: undefined, causes: [] });
  });
});

describe('serviceError', () => {
  it('keeps the service code, or HTTP_<status> without one, and says what to do', () => {
    const known = serviceError(
      read,
      404,
      readErrorBody('{"error":"SCENARIO_NOT_FOUND","message":"gone"}'),
      noScrub,
    );
    expect(known).toMatchObject({ kind: 'service', code: 'SCENARIO_NOT_FOUND', status: 404, accountId: 9 });
    expect(known.message).toMatch(
      /^listScenarios for account 9: the service answered 404 SCENARIO_NOT_FOUND \(gone\); .*check the ids/,
    );
    expect(serviceError(read, 502, readErrorBody('oops'), noScrub).code).toBe('HTTP_502');
    expect(serviceError(read, 429, readErrorBody(''), noScrub)).toMatchObject({
      kind: 'rate_limited',
      code: 'RATE_LIMITED',
    });
  });

  it('scrubs the service message', () => {
    const error = serviceError(read, 400, readErrorBody('{"error":"E","message":"echo SECRET"}'), (t) =>
      t.replace('SECRET', '[REDACTED]'),
    );
    expect(error.message).not.toContain('SECRET');
  });
});

describe('parseSuccess', () => {
  const schema = z.looseObject({ data: z.array(z.looseObject({ id: z.int() })) });

  it('returns the parsed body, unknown fields kept', () => {
    expect(parseSuccess(read, schema, ok('{"data":[{"id":1,"extra":true}],"more":1}'))).toEqual({
      data: [{ id: 1, extra: true }],
      more: 1,
    });
  });

  it('names the operation when the body is not JSON', () => {
    const error = thrown(() => parseSuccess(read, schema, ok('<html>')));
    expect(error).toMatchObject({
      kind: 'malformed_response',
      code: 'MALFORMED_RESPONSE',
      operation: 'listScenarios',
    });
    expect(error.message).toMatch(/listScenarios for account 9: .*not JSON/);
    expect(error.ambiguous).toBe(false);
  });

  it('names the zod issue paths on a schema mismatch', () => {
    const error = thrown(() => parseSuccess(read, schema, ok('{"data":[{"id":1},{"id":"x"}]}')));
    expect(error.message).toMatch(/data\[1\]\.id: /);
  });

  it('marks a malformed answer to a write as ambiguous', () => {
    const error = thrown(() => parseSuccess(write, schema, ok('{}')));
    expect(error.ambiguous).toBe(true);
    expect(error.message).toMatch(/re-check/);
  });
});
