import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { isLoopback, loadAdminConfig } from '../../../src/ops/admin-config.js';
import { thrownBy } from '../../support/thrown.js';

const TOKEN = 'a-token-of-twenty-chars';
const PASSWORD = 'correct horse battery';

const configError = (load: () => unknown) => thrownBy(ConfigError, load);

describe('admin server configuration', () => {
  it('listens on loopback by default, on 9464 for the worker and 9465 for the scheduler, open', () => {
    expect(loadAdminConfig({}, 'worker')).toEqual({ host: '127.0.0.1', port: 9464, credentials: {} });
    expect(loadAdminConfig({}, 'scheduler')).toEqual({ host: '127.0.0.1', port: 9465, credentials: {} });
  });

  it('takes host and port from the environment, the flags winning over it; off disables the server', () => {
    const env = { ERP_BRIDGE_ADMIN_HOST: '::1', ERP_BRIDGE_ADMIN_PORT: '0' };
    expect(loadAdminConfig(env, 'worker')).toMatchObject({ host: '::1', port: 0 });
    expect(loadAdminConfig(env, 'worker', { adminHost: 'localhost', adminPort: '9999' })).toMatchObject({
      host: 'localhost',
      port: 9999,
    });
    expect(loadAdminConfig({ ERP_BRIDGE_ADMIN_PORT: 'off' }, 'worker')).toBeUndefined();
    expect(loadAdminConfig({}, 'scheduler', { adminPort: 'OFF' })).toBeUndefined();
  });

  it('names every invalid setting at once, the flag when the value came from one, never a secret value', () => {
    const error = configError(() =>
      loadAdminConfig(
        {
          ERP_BRIDGE_ADMIN_PORT: '70000',
          ERP_BRIDGE_ADMIN_TOKEN: 'short-secret',
          ERP_BRIDGE_ADMIN_USER: 'ops',
        },
        'worker',
        { adminHost: 'not a host!' },
      ),
    );
    expect(error.problems).toEqual([
      expect.stringMatching(/^--admin-host: expected an IP address or host name/),
      expect.stringMatching(/^ERP_BRIDGE_ADMIN_PORT: expected a port from 0 to 65535 .* or off/),
      expect.stringMatching(/^ERP_BRIDGE_ADMIN_TOKEN: must be at least 16 characters/),
      'ERP_BRIDGE_ADMIN_PASSWORD: is missing; ERP_BRIDGE_ADMIN_USER is set, and basic auth needs both',
    ]);
    expect(error.message).not.toContain('short-secret');
    const flagPort = configError(() => loadAdminConfig({}, 'worker', { adminPort: '-1' }));
    expect(flagPort.problems).toEqual([expect.stringMatching(/^--admin-port: /)]);
    const noUser = configError(() => loadAdminConfig({ ERP_BRIDGE_ADMIN_PASSWORD: PASSWORD }, 'worker'));
    expect(noUser.problems).toEqual([
      'ERP_BRIDGE_ADMIN_USER: is missing; ERP_BRIDGE_ADMIN_PASSWORD is set, and basic auth needs both',
    ]);
  });

  it('refuses an address beyond loopback without credentials, naming the variables to set', () => {
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'admin.example.com']) {
      const error = configError(() => loadAdminConfig({ ERP_BRIDGE_ADMIN_HOST: host }, 'worker'));
      expect(error.message).toContain(`listen on ${host} (beyond loopback) without credentials`);
      for (const variable of ['ERP_BRIDGE_ADMIN_TOKEN', 'ERP_BRIDGE_ADMIN_USER', 'ERP_BRIDGE_ADMIN_PASSWORD'])
        expect(error.message).toContain(variable);
    }
    expect(configError(() => loadAdminConfig({}, 'scheduler', { adminHost: '0.0.0.0' })).message).toContain(
      '--admin-host=127.0.0.1',
    );
  });

  it('listens beyond loopback with a token, or with user and password', () => {
    expect(
      loadAdminConfig({ ERP_BRIDGE_ADMIN_HOST: '0.0.0.0', ERP_BRIDGE_ADMIN_TOKEN: TOKEN }, 'worker'),
    ).toEqual({
      host: '0.0.0.0',
      port: 9464,
      credentials: { token: TOKEN },
    });
    const basic = { ERP_BRIDGE_ADMIN_USER: 'ops', ERP_BRIDGE_ADMIN_PASSWORD: PASSWORD };
    expect(loadAdminConfig(basic, 'scheduler', { adminHost: '0.0.0.0' })?.credentials).toEqual({
      basic: { user: 'ops', password: PASSWORD },
    });
  });

  it('counts 127.0.0.0/8, ::1, their mapped forms and localhost as loopback, nothing else', () => {
    for (const host of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '128.0.0.1', 'example.com', 'localhost.example.com'])
      expect(isLoopback(host), host).toBe(false);
  });
});
