import { isIP } from 'node:net';
import type { AdminConfig } from './admin-config.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** The host part of a Host header: lower case, without port and IPv6 brackets. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  const colon = value.lastIndexOf(':');
  return colon >= 0 ? value.slice(0, colon) : value;
}

/**
 * Whether a request's Host header names this server. DNS rebinding works by pointing a name the
 * attacker owns (evil.example) at 127.0.0.1: the browser then sends `Host: evil.example` to the
 * admin port. So only names we know are ours pass: loopback names, the listen host, the names of
 * ERP_BRIDGE_ADMIN_ALLOWED_HOSTS, and IP literals (a page cannot rebind an address, and scrapers
 * often address a server by IP). A request without Host (HTTP/1.0) is refused too.
 */
export function hostAllowed(header: string | undefined, config: AdminConfig): boolean {
  if (!header) return false;
  const name = hostName(header);
  if (LOOPBACK_NAMES.has(name) || isIP(name) !== 0) return true;
  if (name === config.host.toLowerCase()) return true;
  return (config.allowedHosts ?? []).some((allowed) => allowed.replace(/^\[|\]$/g, '') === name);
}
