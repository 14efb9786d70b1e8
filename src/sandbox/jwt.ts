import { createHash, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Compact JWS with RS256 (RFC 7515/7518), written by hand on node:crypto so the sandbox needs no
 * JWT dependency. Only what the init token needs: sign a JSON payload, split and verify a token.
 */

export type JsonObject = Record<string, unknown>;

export interface JwtHeader {
  alg: string;
  typ?: string;
  kid?: string;
  [extra: string]: unknown;
}

export function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

/** Signs `payload` as a compact JWS: base64url(header).base64url(payload).base64url(RS256 signature). */
export function signRs256(payload: JsonObject, privateKey: KeyObject, kid?: string): string {
  const header: JwtHeader = kid ? { alg: 'RS256', typ: 'JWT', kid } : { alg: 'RS256', typ: 'JWT' };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  // RS256 = RSASSA-PKCS1-v1_5 with SHA-256, node's default padding for an RSA key.
  const signature = sign('sha256', Buffer.from(signingInput), privateKey);
  return `${signingInput}.${base64url(signature)}`;
}

export type VerifyFailure = 'malformed' | 'unsupported-alg' | 'bad-signature';
export type VerifyResult =
  | { ok: true; header: JwtHeader; payload: JsonObject }
  | { ok: false; reason: VerifyFailure };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function parseSegment(segment: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies an RS256 compact JWS against `publicKey`. Claims are NOT checked here (audience, expiry,
 * single use are the exchange's business); the header must say RS256, so `alg: none` or an HMAC
 * downgrade never verifies.
 */
export function verifyRs256(token: string, publicKey: KeyObject): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return { ok: false, reason: 'malformed' };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = parseSegment(headerPart) as JwtHeader | undefined;
  const payload = parseSegment(payloadPart);
  if (!header || !payload) return { ok: false, reason: 'malformed' };
  if (header.alg !== 'RS256') return { ok: false, reason: 'unsupported-alg' };
  const valid = verify(
    'sha256',
    Buffer.from(`${headerPart}.${payloadPart}`),
    publicKey,
    Buffer.from(signaturePart, 'base64url'),
  );
  return valid ? { ok: true, header, payload } : { ok: false, reason: 'bad-signature' };
}

/** RFC 7638 thumbprint of an RSA public key, used as `kid` so a verifier can pick the key from the JWKS. */
export function rsaThumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}
