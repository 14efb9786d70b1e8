import { createHash, timingSafeEqual } from 'node:crypto';
import type { ConsoleGuard } from '../console/console-plugin.js';

/** Who may open the queue dashboard; neither set = open (allowed on loopback only, see admin-config). */
export interface AdminCredentials {
  token?: string;
  basic?: { user: string; password: string };
}

/**
 * Whether any credential is configured. Without one the admin server may only listen on loopback
 * and its queue dashboard is read-only; with one, the dashboard asks for it.
 */
export function hasCredentials(credentials: AdminCredentials): boolean {
  return Boolean(credentials.token || credentials.basic);
}

export const AUTH_REALM = 'Basic realm="erp-bridge admin", charset="UTF-8"';

/**
 * Compares in constant time. Hashing first gives both sides the same length, so neither the
 * content nor the length of the secret leaks through timing.
 */
function same(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Whether an Authorization header opens the dashboard: `Bearer <token>`, or basic auth with the
 * configured user and password, or with the token as password (any user name), which is how a
 * browser, which cannot send a bearer token, gets in with only a token configured. No query
 * parameter: URLs end up in logs and browser history.
 */
export function authorized(header: string | undefined, credentials: AdminCredentials): boolean {
  if (!hasCredentials(credentials)) return true;
  const { token, basic } = credentials;
  const [scheme, value] = (header ?? '').trim().split(/\s+/, 2);
  if (!scheme || !value) return false;
  if (scheme.toLowerCase() === 'bearer') return token !== undefined && same(value, token);
  if (scheme.toLowerCase() !== 'basic') return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  // Every comparison runs, so the answer's timing does not tell which part was wrong.
  const userOk = basic ? same(user, basic.user) : false;
  const passwordOk = basic ? same(password, basic.password) : false;
  const tokenOk = token ? same(password, token) : false;
  return (userOk && passwordOk) || tokenOk;
}

/**
 * The console's guard from the admin credentials: the same check and realm as the queue dashboard;
 * none without credentials (loopback only, and the console is read-only whoever opens it).
 */
export function consoleGuard(credentials: AdminCredentials): ConsoleGuard | undefined {
  if (!hasCredentials(credentials)) return undefined;
  return { authorized: (header) => authorized(header, credentials), challenge: AUTH_REALM };
}
