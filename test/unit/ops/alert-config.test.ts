import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadAlertConfig } from '../../../src/ops/alerts/alert-config.js';
import { thrownBy } from '../../support/thrown.js';

const problemOf = (env: NodeJS.ProcessEnv) => thrownBy(ConfigError, () => loadAlertConfig(env));

describe('loadAlertConfig', () => {
  it('has defaults and no webhook', () => {
    expect(loadAlertConfig({})).toEqual({ rejectedShare: 0.1, dropShare: 0.5 });
    // Empty values count as unset (docker-compose passes them through that way).
    expect(loadAlertConfig({ ERP_BRIDGE_ALERT_WEBHOOK_URL: '' })).toEqual({
      rejectedShare: 0.1,
      dropShare: 0.5,
    });
  });

  it('reads every variable', () => {
    expect(
      loadAlertConfig({
        ERP_BRIDGE_ALERT_REJECTED_SHARE: '0.25',
        ERP_BRIDGE_ALERT_DROP_SHARE: '0',
        ERP_BRIDGE_ALERT_WEBHOOK_URL: 'https://hooks.example.com/services/T0/B0/s3cr3t',
        ERP_BRIDGE_ALERT_WEBHOOK_TIMEOUT_S: '2.5',
        ERP_BRIDGE_ALERT_WEBHOOK_AUTHORIZATION: 'Bearer abc',
      }),
    ).toEqual({
      rejectedShare: 0.25,
      dropShare: 0,
      webhook: {
        url: 'https://hooks.example.com/services/T0/B0/s3cr3t',
        timeoutMs: 2500,
        authorization: 'Bearer abc',
      },
    });
  });

  it.each([
    ['ERP_BRIDGE_ALERT_REJECTED_SHARE', '10%'],
    ['ERP_BRIDGE_ALERT_REJECTED_SHARE', '1.5'],
    ['ERP_BRIDGE_ALERT_DROP_SHARE', '-0.1'],
    ['ERP_BRIDGE_ALERT_WEBHOOK_TIMEOUT_S', '0'],
    ['ERP_BRIDGE_ALERT_WEBHOOK_TIMEOUT_S', 'soon'],
    ['ERP_BRIDGE_ALERT_WEBHOOK_URL', 'not a url'],
    ['ERP_BRIDGE_ALERT_WEBHOOK_URL', 'ftp://hooks.example.com/x'],
  ])('refuses %s=%s, naming the variable', (variable, value) => {
    const error = problemOf({ [variable]: value });
    expect(error.problems).toEqual([expect.stringMatching(new RegExp(`^${variable}: expected `))]);
  });

  it('never echoes the webhook URL, which may carry a token', () => {
    const error = problemOf({ ERP_BRIDGE_ALERT_WEBHOOK_URL: 'ftp://user:s3cr3t@hooks.example.com/t0k3n' });
    expect(error.message).not.toMatch(/s3cr3t|t0k3n/);
  });
});
