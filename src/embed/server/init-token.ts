import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { isApiError, type PartnerClientCore } from '../../client/index.js';
import type { SsoInitResponse } from '../../contract/index.js';

/**
 * Headers of every answer that carries an init token: the token is single use and a credential
 * for its user until it expires, so no browser, proxy or CDN may keep a copy (spec: "never cached").
 */
export const INIT_TOKEN_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
};

/** Whose token: a user of a customer account, taken from the partner's own signed-in session. */
export interface InitTokenTarget {
  accountId: number;
  userId: number;
  signal?: AbortSignal;
}

/**
 * Mints one init token (POST /authentication/sso/init) for the embedded application. Call it for
 * every page load and every retry, on the server only; never cache or log what it returns. The
 * client already keeps the token out of its own logs and error messages.
 */
export function mintInitToken(client: PartnerClientCore, target: InitTokenTarget): Promise<SsoInitResponse> {
  const { accountId, userId, signal } = target;
  return client.call('ssoInit', { accountId, body: { userId }, signal });
}

/**
 * Mints a token and answers the browser with `{initToken, expiresIn, expiresAt}` under
 * INIT_TOKEN_HEADERS. A refusal of the service (user inactive or unknown, rate limit, SSO not enabled)
 * becomes 502 with the service's code (and Retry-After when it gave one), never a token. Logs the
 * outcome with the account and user only.
 */
export async function sendInitToken(
  res: ServerResponse,
  client: PartnerClientCore,
  target: InitTokenTarget,
  logger?: Logger,
): Promise<void> {
  const { accountId, userId } = target;
  try {
    const { initToken, expiresIn, expiresAt } = await mintInitToken(client, target);
    logger?.info({ accountId, userId, expiresAt }, 'init token minted');
    send(res, 200, { initToken, expiresIn, expiresAt });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const code = error.serviceCode ?? error.code;
    logger?.warn({ accountId, userId, code, status: error.status }, 'init token refused');
    const retryAfter: Record<string, string> =
      error.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) };
    send(res, 502, { error: code, message: 'The service did not mint an init token' }, retryAfter);
  }
}

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...INIT_TOKEN_HEADERS, 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}
