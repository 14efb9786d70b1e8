import { createPublicKey, generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { base64url, rsaThumbprint, signRs256, verifyRs256 } from '../../../src/sandbox/jwt.js';

let key: { privateKey: KeyObject; publicKey: KeyObject };
let other: { privateKey: KeyObject; publicKey: KeyObject };

beforeAll(() => {
  key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  other = generateKeyPairSync('rsa', { modulusLength: 2048 });
});

const claims = { sub: '42', aud: 'embedded-app', exp: 1_900_000_000, jti: 'abc' };
const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

describe('RS256 compact JWS', () => {
  it('encodes header.payload.signature in base64url without padding', () => {
    const token = signRs256(claims, key.privateKey, 'kid-1');
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decode(parts[0] as string)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
    expect(decode(parts[1] as string)).toEqual(claims);
    // 2048-bit RSA signature = 256 bytes = 342 base64url chars without padding.
    expect(parts[2]).toHaveLength(342);
  });

  it('produces a signature that node:crypto verifies independently (RSASSA-PKCS1-v1_5, SHA-256)', () => {
    const token = signRs256(claims, key.privateKey);
    const [h, p, s] = token.split('.') as [string, string, string];
    const jwkKey = createPublicKey({ key: key.publicKey.export({ format: 'jwk' }), format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${h}.${p}`), jwkKey, Buffer.from(s, 'base64url'))).toBe(true);
  });

  it('verifies its own tokens and returns the payload', () => {
    const result = verifyRs256(signRs256(claims, key.privateKey), key.publicKey);
    expect(result).toMatchObject({ ok: true, payload: claims });
  });

  it('refuses a token signed by another key', () => {
    expect(verifyRs256(signRs256(claims, other.privateKey), key.publicKey)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('refuses a payload changed after signing', () => {
    const [h, , s] = signRs256(claims, key.privateKey).split('.');
    const forged = `${h}.${base64url(JSON.stringify({ ...claims, sub: '43' }))}.${s}`;
    expect(verifyRs256(forged, key.publicKey)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses alg none and HS256 downgrades', () => {
    const payload = base64url(JSON.stringify(claims));
    const none = `${base64url(JSON.stringify({ alg: 'none' }))}.${payload}.x`;
    const hs = `${base64url(JSON.stringify({ alg: 'HS256' }))}.${payload}.${base64url('sig')}`;
    expect(verifyRs256(none, key.publicKey)).toEqual({ ok: false, reason: 'unsupported-alg' });
    expect(verifyRs256(hs, key.publicKey)).toEqual({ ok: false, reason: 'unsupported-alg' });
  });

  it.each([
    ['empty', ''],
    ['two segments', 'a.b'],
    ['four segments', 'a.b.c.d'],
    ['non-base64url characters', 'a+b.c/d.e='],
    ['header not JSON', `${base64url('nope')}.${base64url('{}')}.sig`],
    ['payload an array', `${base64url('{"alg":"RS256"}')}.${base64url('[1]')}.sig`],
  ])('calls a %s token malformed', (_name, token) => {
    expect(verifyRs256(token, key.publicKey)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('derives a stable RFC 7638 thumbprint per key', () => {
    expect(rsaThumbprint(key.publicKey)).toBe(rsaThumbprint(key.publicKey));
    expect(rsaThumbprint(key.publicKey)).not.toBe(rsaThumbprint(other.publicKey));
    expect(rsaThumbprint(key.publicKey)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
