import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type EMBEDDED_AUTH_ERROR_CODES, InitTokenClaims } from '../contract/index.js';
import { sendJson } from './http.js';
import { verifyRs256 } from './jwt.js';
import type { SsoIssuer } from './sso.js';
import type { SandboxState } from './state.js';

/** The spec's `service:auth-error` codes (Events), as the contract lists them. */
export type AuthErrorCode = (typeof EMBEDDED_AUTH_ERROR_CODES)[number];

export type ExchangeResult =
  | { ok: true; accessToken: string; refreshToken: string; userId: number; accountId: number }
  | { ok: false; status: number; code: AuthErrorCode; message: string };

/** HTTP status of each failure on the sandbox's exchange endpoint (the real exchange is internal). */
const STATUS: Record<AuthErrorCode, number> = {
  MISSING_TOKEN: 400,
  INVALID_TOKEN: 401,
  EXPIRED_TOKEN: 401,
  TOKEN_ALREADY_USED: 409,
  USER_INACTIVE: 403,
  INTERNAL_ERROR: 500,
};

const fail = (code: AuthErrorCode, message: string): ExchangeResult => ({
  ok: false,
  status: STATUS[code],
  code,
  message,
});

/**
 * What the embedded application does with `service:auth`: verify the init token (RS256 signature,
 * audience, issuer), refuse it when already used (checked before expiry: the spec's "consumed + any
 * -> TOKEN_ALREADY_USED"), expired by the sandbox clock, or when its user is no longer active;
 * otherwise consume it and log the user in. Failures do not consume the token.
 */
export async function exchangeInitToken(
  issuer: SsoIssuer,
  state: SandboxState,
  token: unknown,
  now: number,
): Promise<ExchangeResult> {
  if (token === undefined || token === null || token === '') {
    return fail('MISSING_TOKEN', 'service:auth carried no initToken');
  }
  if (typeof token !== 'string') return fail('INVALID_TOKEN', 'initToken must be a string');
  const { publicKey } = await issuer.keys();
  const verified = verifyRs256(token, publicKey);
  if (!verified.ok) return fail('INVALID_TOKEN', `Init token rejected: ${verified.reason}`);
  const claims = InitTokenClaims.safeParse(verified.payload);
  if (!claims.success) return fail('INVALID_TOKEN', 'Init token claims are incomplete or mistyped');
  const { aud, iss, jti, exp, sub, accountId } = claims.data;
  if (aud !== issuer.audience) return fail('INVALID_TOKEN', 'Init token is not for this application');
  if (iss !== issuer.issuer) return fail('INVALID_TOKEN', 'Init token comes from another issuer');
  const minted = issuer.minted.get(jti);
  if (!minted) return fail('INVALID_TOKEN', 'Init token was not issued by this sandbox (or before a reset)');
  if (minted.consumed) return fail('TOKEN_ALREADY_USED', 'Init token was already exchanged');
  if (now >= exp * 1000) return fail('EXPIRED_TOKEN', 'Init token is past its expiry');
  const userId = Number(sub);
  const user = state.accounts.get(accountId)?.users.get(userId);
  if (!user?.active) return fail('USER_INACTIVE', 'The user is inactive or no longer exists');
  minted.consumed = true;
  return {
    ok: true,
    accessToken: randomBytes(24).toString('base64url'),
    refreshToken: randomBytes(24).toString('base64url'),
    userId,
    accountId,
  };
}

/**
 * /_sandbox/embedded/*: the embedded application's side, which the partner API does not expose.
 * POST exchange {initToken} answers the postMessage the iframe would send (`service:auth-success`
 * or `service:auth-error` with its code); GET jwks / public-key publish the verification key.
 */
export async function handleEmbedded(
  issuer: SsoIssuer,
  state: SandboxState,
  now: number,
  route: string,
  body: Buffer,
  res: ServerResponse,
): Promise<boolean> {
  switch (route) {
    case 'POST /_sandbox/embedded/exchange': {
      const result = await exchangeInitToken(issuer, state, initTokenOf(body), now);
      if (result.ok) {
        const { accessToken, refreshToken } = result;
        sendJson(res, 200, { type: 'service:auth-success', success: true, accessToken, refreshToken });
      } else {
        const { status, code, message } = result;
        sendJson(res, status, { type: 'service:auth-error', success: false, code, message });
      }
      return true;
    }
    case 'GET /_sandbox/embedded/jwks': {
      const { publicKey, kid } = await issuer.keys();
      sendJson(res, 200, {
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
      });
      return true;
    }
    case 'GET /_sandbox/embedded/public-key': {
      const { publicKey, kid } = await issuer.keys();
      const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
      sendJson(res, 200, { kid, alg: 'RS256', issuer: issuer.issuer, audience: issuer.audience, pem });
      return true;
    }
    default:
      return false;
  }
}

/** The `initToken` of a JSON body; anything unreadable counts as no token (MISSING_TOKEN). */
function initTokenOf(body: Buffer): unknown {
  return jsonObjectOf(body)?.initToken;
}

/** A request body parsed as a JSON object; undefined when it is empty, not JSON or not an object. */
export function jsonObjectOf(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = body.length ? JSON.parse(body.toString('utf8')) : undefined;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
