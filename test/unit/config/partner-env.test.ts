import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadPartnerConfig, PartnerConfigError } from '../../../src/config/partner-env.js';

const SECRET = 'very-secret-value-123';
const valid = {
  PARTNER_API_URL: 'https://api.example.com/partner/v2',
  PARTNER_AUTH_URL: 'https://auth.example.com',
  PARTNER_CLIENT_ID: 'partner-1',
  PARTNER_CLIENT_SECRET: SECRET,
};

function configError(env: NodeJS.ProcessEnv): PartnerConfigError {
  try {
    loadPartnerConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    if (error instanceof PartnerConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadPartnerConfig', () => {
  it('returns typed settings with the documented defaults, in milliseconds', () => {
    expect(loadPartnerConfig(valid)).toEqual({
      baseUrl: 'https://api.example.com/partner/v2',
      authUrl: 'https://auth.example.com',
      clientId: 'partner-1',
      clientSecret: SECRET,
      connectTimeoutMs: 10_000,
      headersTimeoutMs: 60_000,
      bodyTimeoutMs: 60_000,
      connections: 16,
      tokenRenewMarginMs: 60_000,
      retryAfterDefaultMs: 5_000,
      retryAfterMaxMs: 300_000,
      rateLimitMaxTotalWaitMs: 900_000,
    });
  });

  it('reads PARTNER_INFLIGHT_GRACE_MS (unset: the client derives it from the headers timeout)', () => {
    expect(loadPartnerConfig({ ...valid, PARTNER_INFLIGHT_GRACE_MS: '4500' }).inFlightGraceMs).toBe(4_500);
    expect(loadPartnerConfig({ ...valid, PARTNER_INFLIGHT_GRACE_MS: '0' }).inFlightGraceMs).toBe(0);
    expect(configError({ ...valid, PARTNER_INFLIGHT_GRACE_MS: '2s' }).variables).toEqual([
      'PARTNER_INFLIGHT_GRACE_MS',
    ]);
  });

  it('reads every tuning variable', () => {
    const config = loadPartnerConfig({
      ...valid,
      PARTNER_API_URL: 'https://api.example.com/partner/v2/',
      PARTNER_CONNECT_TIMEOUT_MS: '1000',
      PARTNER_HEADERS_TIMEOUT_MS: '2000',
      PARTNER_BODY_TIMEOUT_MS: '3000',
      PARTNER_CONNECTIONS: '4',
      PARTNER_TOKEN_RENEW_MARGIN_S: '120',
      PARTNER_RETRY_AFTER_DEFAULT_S: '10',
      PARTNER_RETRY_AFTER_MAX_S: '60',
      PARTNER_RATE_LIMIT_MAX_WAIT_S: '600',
    });
    expect(config).toMatchObject({
      baseUrl: 'https://api.example.com/partner/v2',
      connectTimeoutMs: 1_000,
      headersTimeoutMs: 2_000,
      bodyTimeoutMs: 3_000,
      connections: 4,
      tokenRenewMarginMs: 120_000,
      retryAfterDefaultMs: 10_000,
      retryAfterMaxMs: 60_000,
      rateLimitMaxTotalWaitMs: 600_000,
    });
  });

  it('treats an empty tuning variable as unset', () => {
    expect(loadPartnerConfig({ ...valid, PARTNER_CONNECTIONS: '' }).connections).toBe(16);
  });

  it('names every missing variable at once', () => {
    const error = configError({});
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.variables).toEqual([
      'PARTNER_API_URL',
      'PARTNER_AUTH_URL',
      'PARTNER_CLIENT_ID',
      'PARTNER_CLIENT_SECRET',
    ]);
    for (const name of error.variables) expect(error.message).toMatch(new RegExp(`${name} is missing`));
  });

  it('points at a set variable that looks like a typo of a missing one, never at its value', () => {
    const { PARTNER_API_URL, PARTNER_CLIENT_SECRET, ...rest } = valid;
    const error = configError({
      ...rest,
      PARTNER_API_ULR: PARTNER_API_URL,
      partner_client_secret: SECRET,
      PARTNER_CONNECTIONS: '4',
      PATH: '/usr/bin',
    });
    expect(error.variables).toEqual(['PARTNER_API_URL', 'PARTNER_CLIENT_SECRET']);
    expect(error.message).toContain('(PARTNER_API_ULR is set: did you mean PARTNER_API_URL?)');
    expect(error.message).toContain('(partner_client_secret is set: did you mean PARTNER_CLIENT_SECRET?)');
    expect(error.message).not.toContain('PATH');
    expect(error.message).not.toContain(SECRET);
    // Without a lookalike, the plain message.
    expect(configError(rest).message).not.toContain('did you mean');
  });

  it('names every invalid variable at once, with what is expected', () => {
    const error = configError({
      PARTNER_API_URL: 'https://api.example.com/partner/v1',
      PARTNER_AUTH_URL: 'not a url',
      PARTNER_CLIENT_ID: '  ',
      PARTNER_CLIENT_SECRET: SECRET,
      PARTNER_CONNECT_TIMEOUT_MS: 'ten',
      PARTNER_HEADERS_TIMEOUT_MS: '0',
      PARTNER_BODY_TIMEOUT_MS: '-5',
      PARTNER_CONNECTIONS: '1.5',
      PARTNER_TOKEN_RENEW_MARGIN_S: '3600',
      PARTNER_RETRY_AFTER_DEFAULT_S: '400',
      PARTNER_RETRY_AFTER_MAX_S: '300',
      PARTNER_RATE_LIMIT_MAX_WAIT_S: 'x',
    });
    expect([...error.variables].sort()).toEqual(
      [
        'PARTNER_API_URL',
        'PARTNER_AUTH_URL',
        'PARTNER_CLIENT_ID',
        'PARTNER_CONNECT_TIMEOUT_MS',
        'PARTNER_HEADERS_TIMEOUT_MS',
        'PARTNER_BODY_TIMEOUT_MS',
        'PARTNER_CONNECTIONS',
        'PARTNER_TOKEN_RENEW_MARGIN_S',
        'PARTNER_RETRY_AFTER_DEFAULT_S',
        'PARTNER_RATE_LIMIT_MAX_WAIT_S',
      ].sort(),
    );
    expect(error.message).toMatch(/PARTNER_API_URL must end in \/v2/);
    expect(error.message).toMatch(/PARTNER_AUTH_URL is not a URL/);
    expect(error.message).toMatch(/PARTNER_CLIENT_ID is empty/);
    expect(error.message).toMatch(/PARTNER_CONNECTIONS must be a whole number of connections from 1 to 1024/);
    expect(error.message).toMatch(/PARTNER_RETRY_AFTER_DEFAULT_S must not exceed PARTNER_RETRY_AFTER_MAX_S/);
    expect(error.problems).toHaveLength(10);
  });

  it('refuses URLs with credentials, queries or other schemes', () => {
    const error = configError({
      ...valid,
      PARTNER_API_URL: 'https://user:pw@api.example.com/v2',
      PARTNER_AUTH_URL: 'ftp://auth.example.com',
    });
    expect(error.message).toMatch(/PARTNER_API_URL must not carry credentials/);
    expect(error.message).toMatch(/PARTNER_AUTH_URL must be an http\(s\) URL/);
    expect(configError({ ...valid, PARTNER_API_URL: 'https://a/v2?x=1' }).message).toMatch(/query/);
  });

  it('never echoes a value, so the client secret cannot leak through the error', () => {
    const error = configError({
      ...valid,
      PARTNER_API_URL: `https://api.example.com/${SECRET}`,
      PARTNER_CONNECTIONS: SECRET,
    });
    expect(error.message).not.toContain(SECRET);
    expect(JSON.stringify(error.problems)).not.toContain(SECRET);
  });
});

describe("the README's troubleshooting row", () => {
  it('quotes the message a missing PARTNER_API_URL really gives', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const quoted = /^\| exit 2, `(PARTNER_API_URL [^`]*?) …` \|/m.exec(readme)?.[1];
    expect(quoted).toBeDefined();
    const { PARTNER_API_URL: _, ...withoutUrl } = valid;
    expect(configError(withoutUrl).message).toContain(quoted);
  });
});
