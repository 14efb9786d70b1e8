import { describe, expect, it } from 'vitest';
import { withLogContext } from '../../../src/logging/log-context.js';
import { captureLogs } from '../../support/log-capture.js';

describe('withLogContext', () => {
  it('adds its bindings to every line logged while it runs, awaits included, and nothing outside', async () => {
    const { logger, lines } = captureLogs();
    await withLogContext({ runId: 'r1', tenant: 1001 }, async () => {
      logger.info('before');
      await new Promise((resolve) => setTimeout(resolve, 1));
      await withLogContext({ chunk: 3 }, async () => logger.info('inner'));
    });
    logger.info('outside');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map(({ msg, runId, tenant, chunk }) => ({ msg, runId, tenant, chunk }))).toEqual([
      { msg: 'before', runId: 'r1', tenant: 1001, chunk: undefined },
      { msg: 'inner', runId: 'r1', tenant: 1001, chunk: 3 },
      { msg: 'outside', runId: undefined, tenant: undefined, chunk: undefined },
    ]);
  });

  it('writes a field once when the logger binds it already, and the log call’s own fields win', () => {
    const { logger, lines } = captureLogs();
    withLogContext({ runId: 'from-context', job: 'j1' }, () => {
      logger.child({ runId: 'bound' }).info('child');
      logger.info({ job: 'explicit' }, 'call');
    });
    expect(lines[0]?.match(/"runId"/g)).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ runId: 'bound', job: 'j1' });
    expect(lines[1]?.match(/"job"/g)).toHaveLength(1);
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ runId: 'from-context', job: 'explicit' });
  });
});
