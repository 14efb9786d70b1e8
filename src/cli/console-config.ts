import { isIP } from 'node:net';
import { ConfigError } from '../config/errors.js';
import { type AdminConfig, isLoopback, loadAdminConfig } from '../ops/admin-config.js';

export interface ConsoleFlags {
  host: string;
  port: string;
}

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/**
 * `erp-bridge console`'s server settings: the admin server's credentials and allowed Host names
 * (ERP_BRIDGE_ADMIN_TOKEN, _USER/_PASSWORD, _ALLOWED_HOSTS), validated by the admin loader, with
 * --host and --port for where to listen. Beyond loopback only with credentials: the pages show
 * tenants' names, amounts and rejected records.
 */
export function loadConsoleConfig(env: NodeJS.ProcessEnv, flags: ConsoleFlags): AdminConfig {
  // Asked for loopback, so only the environment's own problems can fail here; the host is ours below.
  const admin = loadAdminConfig(env, 'worker', { adminHost: '127.0.0.1', adminPort: '0' });
  const host = flags.host.trim();
  const problems: string[] = [];
  if (isIP(host) === 0 && !HOST_NAME.test(host))
    problems.push(`--host ${host}: expected an IP address or host name, e.g. 127.0.0.1 (the default)`);
  const port = /^\d{1,5}$/.test(flags.port.trim()) ? Number(flags.port) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    problems.push(`--port ${flags.port}: expected a port from 0 to 65535 (0 = any free port)`);
  if (problems.length > 0 || !admin) throw new ConfigError('invalid console settings:', problems);
  const { credentials } = admin;
  if (!credentials.token && !credentials.basic && !isLoopback(host))
    throw new ConfigError(
      `the console would listen on ${host} (beyond loopback) without credentials, showing tenants' records to anyone who can reach it:`,
      [
        'set ERP_BRIDGE_ADMIN_TOKEN (at least 16 characters), or ERP_BRIDGE_ADMIN_USER and ERP_BRIDGE_ADMIN_PASSWORD',
        'or listen on loopback only: --host 127.0.0.1 (the default)',
      ],
    );
  return { ...admin, host, port };
}
