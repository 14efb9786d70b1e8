import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { loadFleetConfig } from '../../../src/fleet/fleet-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { SCRUBBED, secrets } from '../../../src/logging/secret-scrubber.js';
import { loadAdminConfig } from '../../../src/ops/admin-config.js';
import { createFaultInjector } from '../../../src/sandbox/faults.js';

/** Where the process's scrubber learns its secrets, and where it is applied. */
describe('the process scrubber', () => {
  it('knows the Redis password from REDIS_URL, decoded, in every form', () => {
    loadFleetConfig({ REDIS_URL: 'redis://worker:R3d%2Bis%2Fpw%20x@127.0.0.1:6379/0' });
    for (const form of ['R3d+is/pw x', 'R3d%2Bis%2Fpw%20x', 'R3d%2bis%2fpw+x'])
      expect(secrets.scrub(`ERR echo ${form}`), form).toBe(`ERR echo ${SCRUBBED}`);
  });

  it('knows the admin token and password; a Basic header of user:password is caught in base64', () => {
    loadAdminConfig(
      {
        ERP_BRIDGE_ADMIN_TOKEN: 'admin-token-of-32-characters-xyz',
        ERP_BRIDGE_ADMIN_USER: 'ops',
        ERP_BRIDGE_ADMIN_PASSWORD: 'horse & battery = staple',
      },
      'worker',
    );
    const basic = Buffer.from('ops:horse & battery = staple').toString('base64');
    expect(secrets.scrub(`got Basic ${basic}`)).not.toContain(basic.slice(4, 20));
    expect(secrets.scrub('token=admin-token-of-32-characters-xyz')).toBe(`token=${SCRUBBED}`);
  });

  it('ApiError scrubs its message and its causes (text the service chose)', () => {
    secrets.add('api+secret/&=1');
    const error = new ApiError({
      kind: 'service',
      code: 'INVALID_REQUEST',
      operation: 'createTransactionsBulk',
      message: 'refused client_secret=api%2Bsecret%2F%26%3D1',
      causes: [{ field: 'body', message: 'saw "api+secret\\/&=1"' }],
    });
    expect(error.message).toBe(`refused client_secret=${SCRUBBED}`);
    expect(error.causes).toEqual([{ field: 'body', message: `saw "${SCRUBBED}"` }]);
  });

  it('the logger scrubs errors (message, stack, cause) and warn+ messages', () => {
    secrets.add('log secret+1');
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (l: string) => lines.push(l) } });
    const inner = new Error('inner log%20secret%2B1');
    logger.error({ err: new Error('outer log+secret%2b1', { cause: inner }) }, 'failed');
    logger.warn('server said log secret+1');
    const text = lines.join('\n');
    for (const form of ['log secret+1', 'log%20secret%2B1', 'log+secret%2b1'])
      expect(text).not.toContain(form);
    expect(text).toContain(`outer ${SCRUBBED}`);
    expect(text).toContain(`server said ${SCRUBBED}`);
  });
});

describe('the sandbox echo fault', () => {
  it('answers the token endpoint and the chosen operations with the request quoted, nothing else', async () => {
    const faults = createFaultInjector({ echo: { on: ['token', 'createInvoicesBulk'], status: 500 } });
    const token = faults.beforeToken?.({ echoed: () => 'body client_secret=x%2By' });
    expect(token).toMatchObject({ kind: 'fail', fault: { status: 500 } });
    expect(token?.kind === 'fail' && token.fault.message).toContain('client_secret=x%2By');
    const request = { method: 'POST' as const, partnerId: 'p', accountId: 1001, echoed: () => 'B' };
    const bulk = await faults.before({ ...request, op: 'createInvoicesBulk' });
    expect(bulk.kind === 'fail' && bulk.fault.causes).toEqual([{ field: 'request', message: 'received B' }]);
    expect(await faults.before({ ...request, op: 'createTransactionsBulk' })).toEqual({ kind: 'none' });
    expect(faults.injected()).toEqual({ echo: 2 });
  });
});
