import { createPublicKey, generateKeyPairSync, type JsonWebKey, verify } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, parseSeed, startSandbox } from '../../../src/sandbox/index.js';
import { signRs256 } from '../../../src/sandbox/jwt.js';
import { withSandbox } from '../../support/sandbox.js';
import type { SandboxFixture } from './error-rows/types.js';
import { decodeClaims, ssoHelpers } from './sso-fixture.js';

let sb: SandboxFixture;
let h: ReturnType<typeof ssoHelpers>;

beforeAll(async () => {
  sb = await withSandbox();
  h = ssoHelpers(sb);
  // Generate the RSA key up front (~0.4 s) so no test's timing includes it.
  await sb.sandbox.runtime.sso.keys();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await fetch(`${sb.sandbox.authUrl}/_sandbox/reset`, { method: 'POST' });
});

describe('POST /authentication/sso/init', () => {
  it('mints an RS256 init token with the spec claims, verifiable with the published key', async () => {
    const user = h.firstUser(1001);
    const before = Math.floor(sb.sandbox.runtime.clock.now() / 1000);
    const res = await h.init(user.id);
    expect(res.status).toBe(200);
    const body = res.body as { initToken: string; expiresIn: number; expiresAt: string };
    expect(body.expiresIn).toBe(60);
    expect(body.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const claims = decodeClaims(body.initToken);
    expect(claims).toMatchObject({
      iss: sb.sandbox.authUrl,
      aud: 'embedded-app',
      sub: String(user.id),
      accountId: 1001,
      partnerId: 'demo-partner',
    });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp).toBe((claims.iat as number) + 60);
    expect(new Date(body.expiresAt).getTime()).toBe((claims.exp as number) * 1000);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);

    const jwks = (await (await fetch(`${sb.sandbox.authUrl}/_sandbox/embedded/jwks`)).json()) as {
      keys: (JsonWebKey & { kid: string; alg: string })[];
    };
    const [header, payload, signature] = body.initToken.split('.') as [string, string, string];
    const kid = JSON.parse(Buffer.from(header, 'base64url').toString()).kid;
    const jwk = jwks.keys.find((k) => k.kid === kid);
    expect(jwk?.alg).toBe('RS256');
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    expect(
      verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')),
    ).toBe(true);
  });

  it('publishes the verification key as PEM too', async () => {
    const token = await h.mint();
    const published = (await (await fetch(`${sb.sandbox.authUrl}/_sandbox/embedded/public-key`)).json()) as {
      pem: string;
      alg: string;
      audience: string;
    };
    expect(published).toMatchObject({ alg: 'RS256', audience: 'embedded-app' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const key = createPublicKey(published.pem);
    const signed = Buffer.from(`${header}.${payload}`);
    expect(verify('sha256', signed, key, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(
      verify('sha256', Buffer.from(`${header}.${payload}x`), key, Buffer.from(signature, 'base64url')),
    ).toBe(false);
  });

  it('gives every token its own jti', async () => {
    const [a, b] = [await h.mint(), await h.mint()];
    expect(decodeClaims(a).jti).not.toBe(decodeClaims(b).jti);
  });

  it('answers 404 USER_NOT_FOUND, never 403, for unknown users, other accounts and foreign tenants', async () => {
    const other = h.firstUser(1002);
    const foreign = h.firstUser(1003);
    const cases = [
      await h.init(987_654),
      await h.init(other.id),
      await h.init(foreign.id, { account: 1003 }),
      await h.init(other.id, { account: 999_999 }),
    ];
    for (const res of cases) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'USER_NOT_FOUND' });
    }
  });

  it('answers 409 USER_INACTIVE for a deactivated user', async () => {
    const user = h.firstUser(1001);
    user.active = false;
    expect((await h.init(user.id)).body).toMatchObject({ error: 'USER_INACTIVE' });
  });

  it('refuses a non-numeric userId and a body that is not JSON with 400 INVALID_REQUEST', async () => {
    expect((await h.init('42')).status).toBe(400);
    const res = await sb.call('POST', '/authentication/sso/init', {
      account: 1001,
      body: { userId: 1 },
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.body).toMatchObject({ error: 'INVALID_REQUEST' });
  });

  it('rate-limits per partner: 10 at once, then 429 with Retry-After, refilled by the clock', async () => {
    const user = h.firstUser(1001);
    // Counted in a loop: the bucket also refills 1/s in real time, so a slow run may get an extra one.
    let granted = 0;
    let limited = await h.init(user.id);
    while (limited.status === 200 && granted < 30) {
      granted++;
      limited = await h.init(user.id);
    }
    expect(granted).toBeGreaterThanOrEqual(10);
    expect(granted).toBeLessThan(15);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'RATE_LIMITED' });
    expect(limited.headers.get('retry-after')).toBe('1');

    // Another partner has its own budget.
    const otherToken = await sb.token('other-client', 'other-secret');
    expect((await h.init(h.firstUser(1003).id, { account: 1003, token: otherToken })).status).toBe(200);

    await h.advance(1000);
    expect((await h.init(user.id)).status).toBe(200);
    expect((await h.init(user.id)).status).toBe(429);
  });

  it('is not an API access token', async () => {
    const res = await sb.call('GET', '/authentication/verify-auth', { account: 1001, token: await h.mint() });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'INVALID_CREDENTIALS' });
  });
});

describe('init token states (spec: States, init token) through the embedded exchange', () => {
  it('minted -> consumed: the first exchange logs the user in', async () => {
    const res = await h.exchange({ initToken: await h.mint() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'service:auth-success', success: true });
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.refreshToken).toEqual(expect.any(String));
  });

  it('consumed -> consumed: a second exchange yields TOKEN_ALREADY_USED, even after expiry', async () => {
    const token = await h.mint();
    expect((await h.exchange({ initToken: token })).status).toBe(200);
    const again = await h.exchange({ initToken: token });
    expect(again.body).toMatchObject({ type: 'service:auth-error', code: 'TOKEN_ALREADY_USED' });
    await h.advance(120_000);
    expect((await h.exchange({ initToken: token })).body.code).toBe('TOKEN_ALREADY_USED');
  });

  it('minted -> expired: past exp by the sandbox clock the exchange yields EXPIRED_TOKEN', async () => {
    const fresh = await h.mint();
    const stale = await h.mint();
    await h.advance(58_000);
    expect((await h.exchange({ initToken: fresh })).status).toBe(200);
    await h.advance(2_000);
    const res = await h.exchange({ initToken: stale });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('EXPIRED_TOKEN');
  });

  it('yields USER_INACTIVE when the user is deactivated or deleted between minting and exchange', async () => {
    const user = h.firstUser(1001);
    const token = await h.mint(user.id);
    user.active = false;
    expect((await h.exchange({ initToken: token })).body.code).toBe('USER_INACTIVE');
    user.active = true;
    const second = await h.mint(user.id);
    sb.sandbox.runtime.state.accounts.get(1001)?.users.delete(user.id);
    expect((await h.exchange({ initToken: second })).body.code).toBe('USER_INACTIVE');
  });

  it('yields MISSING_TOKEN without an initToken', async () => {
    for (const body of [{}, { initToken: '' }, 'not json']) {
      const res = await h.exchange(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('MISSING_TOKEN');
    }
  });

  it('yields INVALID_TOKEN for malformed, tampered, foreign-key, wrong-audience and pre-reset tokens', async () => {
    const token = await h.mint();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = decodeClaims(token);
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url')}.${signature}`;
    const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const wrongAudience = await sb.sandbox.runtime.sso.signClaims({ ...claims, aud: 'other-app' });
    const wrongIssuer = await sb.sandbox.runtime.sso.signClaims({ ...claims, iss: 'https://evil.example' });
    const unknownJti = await sb.sandbox.runtime.sso.signClaims({ ...claims, jti: 'never-minted' });
    const candidates = [
      'garbage',
      `${header}.${payload}`,
      tampered,
      signRs256(claims, foreignKey),
      wrongAudience,
      wrongIssuer,
      unknownJti,
      12345,
    ];
    for (const initToken of candidates) {
      const res = await h.exchange({ initToken });
      expect(res.status, String(initToken)).toBe(401);
      expect(res.body.code).toBe('INVALID_TOKEN');
    }
    // The genuine token still works: failed exchanges do not consume it.
    expect((await h.exchange({ initToken: token })).status).toBe(200);

    const beforeReset = await h.mint();
    await fetch(`${sb.sandbox.authUrl}/_sandbox/reset`, { method: 'POST' });
    expect((await h.exchange({ initToken: beforeReset })).body.code).toBe('INVALID_TOKEN');
  });
});

describe('SSO configuration', () => {
  it('takes a lifetime from 30 to 60 s and refuses others', async () => {
    const short = await withSandbox({
      sso: { lifetimeSeconds: 30, rateLimit: { capacity: 1, refillPerSecond: 0.01 } },
    });
    try {
      await short.sandbox.runtime.sso.keys();
      const helpers = ssoHelpers(short);
      const res = await helpers.init(helpers.firstUser(1001).id);
      expect(res.body).toMatchObject({ expiresIn: 30 });
      const limited = await helpers.init(helpers.firstUser(1001).id);
      expect(limited.status).toBe(429);
      // One token per 100 s: the wait is 100 s less the little time since the first call.
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(95);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(100);
    } finally {
      await short.close();
    }
    await expect(startSandbox({ sso: { lifetimeSeconds: 61 } })).rejects.toThrow(/30 to 60/);
    await expect(startSandbox({ sso: { lifetimeSeconds: 29 } })).rejects.toThrow(/30 to 60/);
  });

  it('answers 403 SSO_NOT_ENABLED for a partner whose seed disables SSO', async () => {
    const seed = parseSeed(
      { ...DEFAULT_SEED, partners: DEFAULT_SEED.partners.map((p) => ({ ...p, ssoEnabled: false })) },
      'test seed',
    );
    const off = await withSandbox({ seed });
    try {
      const res = await ssoHelpers(off).init(ssoHelpers(off).firstUser(1001).id);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'SSO_NOT_ENABLED' });
    } finally {
      await off.close();
    }
  });
});
