import { BlockList, isIP } from 'node:net';
import * as z from 'zod';
import { ConfigError } from '../config/errors.js';
import { secrets } from '../logging/secret-scrubber.js';
import { type AdminCredentials, hasCredentials } from './admin-auth.js';
import { ADMIN_DEFAULT_PORTS, type AdminRole } from './admin-ports.js';

export interface AdminConfig {
  host: string;
  /** 0 = any free port (the server logs the one it got). */
  port: number;
  credentials: AdminCredentials;
  /**
   * Host header names (lower case, no port) the server answers besides loopback names, the listen
   * host and IP literals (ERP_BRIDGE_ADMIN_ALLOWED_HOSTS). Anything else is refused: a web page
   * that rebinds its own name to this machine must not reach the server.
   */
  allowedHosts?: readonly string[];
}

/** `--admin-host` and `--admin-port`: they win over the environment. */
export interface AdminFlags {
  adminHost?: string;
  adminPort?: string;
}

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const HOST_RULE =
  'expected an IP address or host name to listen on: 127.0.0.1 (loopback, the default) or e.g. 0.0.0.0 (every interface)';
const PORT_RULE = 'expected a port from 0 to 65535 (0 = any free port) or off (no admin server)';
const TOKEN_MIN = 16;
const PASSWORD_MIN = 12;

/** Values are never echoed in messages: two of them are secrets. */
const AdminEnv = z.object({
  host: z
    .string()
    .trim()
    .refine((h) => isIP(h) !== 0 || HOST_NAME.test(h), HOST_RULE),
  port: z
    .string()
    .trim()
    .toLowerCase()
    .refine((p) => p === 'off' || (/^\d{1,5}$/.test(p) && Number(p) <= 65_535), PORT_RULE)
    .transform((p) => (p === 'off' ? undefined : Number(p))),
  token: z
    .string()
    .min(TOKEN_MIN, `must be at least ${TOKEN_MIN} characters (e.g. the output of: openssl rand -hex 32)`)
    .optional(),
  user: z
    .string()
    .min(1)
    .refine((u) => !u.includes(':'), 'must not contain ":" (basic auth separates user and password with it)')
    .optional(),
  password: z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).optional(),
  allowedHosts: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (hosts) => hosts.every((h) => HOST_NAME.test(h) || isIP(h.replace(/^\[|\]$/g, '')) !== 0),
      'expected a comma-separated list of host names as clients address this server (no port), e.g. worker-1,admin.example.com',
    )
    .optional(),
});

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Only this machine can connect: 127.0.0.0/8, ::1 (and IPv4-mapped forms) or localhost. */
export function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The admin server's settings (`undefined` when the port is `off`), from the flags and the
 * environment, validated before the process connects to anything. Without credentials the
 * server may only listen on loopback: the queue dashboard can retry and remove jobs.
 */
export function loadAdminConfig(
  env: NodeJS.ProcessEnv,
  role: AdminRole,
  flags: AdminFlags = {},
): AdminConfig | undefined {
  const set = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const names = {
    host: flags.adminHost !== undefined ? '--admin-host' : 'ERP_BRIDGE_ADMIN_HOST',
    port: flags.adminPort !== undefined ? '--admin-port' : 'ERP_BRIDGE_ADMIN_PORT',
    token: 'ERP_BRIDGE_ADMIN_TOKEN',
    user: 'ERP_BRIDGE_ADMIN_USER',
    password: 'ERP_BRIDGE_ADMIN_PASSWORD',
    allowedHosts: 'ERP_BRIDGE_ADMIN_ALLOWED_HOSTS',
  } as const;
  const input = {
    host: set(flags.adminHost) ?? set(env.ERP_BRIDGE_ADMIN_HOST) ?? '127.0.0.1',
    port: set(flags.adminPort) ?? set(env.ERP_BRIDGE_ADMIN_PORT) ?? String(ADMIN_DEFAULT_PORTS[role]),
    token: set(env.ERP_BRIDGE_ADMIN_TOKEN),
    user: set(env.ERP_BRIDGE_ADMIN_USER),
    password: set(env.ERP_BRIDGE_ADMIN_PASSWORD),
    allowedHosts: set(env.ERP_BRIDGE_ADMIN_ALLOWED_HOSTS),
  };
  const parsed = AdminEnv.safeParse(input);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const key = String(issue.path[0]) as keyof typeof names;
        return `${names[key] ?? key}: ${issue.message}`;
      });
  // From the raw input, so that one round reports this along with any invalid value.
  if (input.user !== undefined && input.password === undefined)
    problems.push(`${names.password}: is missing; ${names.user} is set, and basic auth needs both`);
  if (input.password !== undefined && input.user === undefined)
    problems.push(`${names.user}: is missing; ${names.password} is set, and basic auth needs both`);
  if (!parsed.success || problems.length > 0)
    throw new ConfigError('invalid admin server configuration:', problems);

  const { host, port, token, user, password, allowedHosts } = parsed.data;
  // Echoed in any encoding (a Basic header is base64 of user:password), they are still scrubbed.
  secrets.add(token);
  secrets.add(password);
  if (port === undefined) return undefined;
  const credentials: AdminCredentials = {
    ...(token ? { token } : {}),
    ...(user && password ? { basic: { user, password } } : {}),
  };
  if (!hasCredentials(credentials) && !isLoopback(host))
    throw new ConfigError(
      `the admin server would listen on ${host} (beyond loopback) without credentials, opening the queue dashboard to anyone who can reach it:`,
      [
        `set ${names.token} (at least ${TOKEN_MIN} characters), or ${names.user} and ${names.password}`,
        `or listen on loopback only: ${names.host}=127.0.0.1`,
      ],
    );
  return { host, port, credentials, ...(allowedHosts ? { allowedHosts } : {}) };
}
