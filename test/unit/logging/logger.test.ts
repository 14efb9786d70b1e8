import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../../../src/logging/logger.js';
import { captureLogs } from '../../support/log-capture.js';
import { parseLogLine, topLevelKeys } from '../../support/log-line.js';

function capture() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    name: 'test',
    destination: { write: (l: string) => lines.push(l) },
  });
  return { logger, lines };
}

describe('createLogger', () => {
  it('writes JSON lines with level names and the given name', () => {
    const { logger, lines } = capture();
    logger.info({ operation: 'listInvoices' }, 'hello');
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', name: 'test', operation: 'listInvoices', msg: 'hello' });
  });

  it('redacts secrets at the top level and nested, keeping everything else', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        client_secret: 'S1',
        clientSecret: 'S2',
        access_token: 'T1',
        accessToken: 'T2',
        token: 'T3',
        initToken: 'T4',
        authorization: 'Bearer T5',
        keep: 'visible',
        form: { client_secret: 'S3', client_id: 'partner-1' },
        req: { headers: { authorization: 'Bearer T6', Authorization: 'Bearer T7', 'x-account-id': '42' } },
        job: { ctx: { credentials: { token: 'T8' } } },
        response: { body: { access_token: 'T9', expires_in: 3600 } },
      },
      'request',
    );
    const line = lines[0] ?? '';
    for (const secret of ['S1', 'S2', 'S3', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8', 'T9']) {
      expect(line, secret).not.toContain(`"${secret}"`);
      expect(line, secret).not.toContain(`Bearer ${secret}`);
    }
    const entry = JSON.parse(line) as {
      keep: string;
      form: { client_secret: string; client_id: string };
      req: { headers: Record<string, string> };
      response: { body: { access_token: string; expires_in: number } };
    };
    expect(entry.keep).toBe('visible');
    expect(entry.form).toEqual({ client_secret: REDACTED, client_id: 'partner-1' });
    expect(entry.req.headers).toEqual({
      authorization: REDACTED,
      Authorization: REDACTED,
      'x-account-id': '42',
    });
    expect(entry.response.body).toEqual({ access_token: REDACTED, expires_in: 3600 });
  });

  it('logs nothing at level silent', () => {
    const lines: string[] = [];
    createLogger({ level: 'silent', destination: { write: (l: string) => lines.push(l) } }).error('x');
    expect(lines).toEqual([]);
  });
});

describe('createLogger: a key bound by a child logger and given by a call is written once', () => {
  it('drops a field the child binds with the same value, and keeps a different one under call', () => {
    const logs = captureLogs();
    const chunk = logs.logger.child({ runId: 'r1', tenant: 0 });
    chunk.error({ tenant: 0, code: 'X' }, 'same');
    chunk.error({ alert: true, tenant: 1001 }, 'different');
    expect(logs.lines.map((line) => topLevelKeys(line).filter((key) => key === 'tenant'))).toEqual([
      ['tenant'],
      ['tenant'],
    ]);
    expect(logs.entries()).toMatchObject([
      { tenant: 0, code: 'X', msg: 'same' },
      { tenant: 0, alert: true, call: { tenant: 1001 }, msg: 'different' },
    ]);
  });
});

describe('parseLogLine (test support)', () => {
  it('refuses a line with a top-level key twice, not a key repeated in a nested object', () => {
    expect(() => parseLogLine('{"a":1,"t":0,"b":{"t":2},"t":3}')).toThrow(/key\(s\) t twice/);
    expect(parseLogLine('{"a":"x\\":","t":0,"b":{"t":2,"c":[{"t":1}]}}')).toEqual({
      a: 'x":',
      t: 0,
      b: { t: 2, c: [{ t: 1 }] },
    });
  });
});
