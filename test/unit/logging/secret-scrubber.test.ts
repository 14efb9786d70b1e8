import { describe, expect, it } from 'vitest';
import { base64Cores, SCRUBBED, SecretScrubber } from '../../../src/logging/secret-scrubber.js';

const SECRET = 'p+w/d&k=v x y';
const forms = (secret: string): Record<string, string> => ({
  raw: secret,
  'URL-encoded, %20': encodeURIComponent(secret),
  'form-encoded, +': new URLSearchParams({ s: secret }).toString().slice(2),
  'URL-encoded, lower-case hex': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  'URL-encoded twice': encodeURIComponent(encodeURIComponent(secret)),
  'every character percent-encoded': [...Buffer.from(secret)].map((b) => `%${b.toString(16)}`).join(''),
  'JSON-escaped': JSON.stringify(secret).slice(1, -1),
  'JSON with \\/': JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
  'JSON \\u escapes': [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'JSON of the form encoding': JSON.stringify(new URLSearchParams({ s: secret }).toString().slice(2)).slice(
    1,
    -1,
  ),
  'HTML-escaped': secret.replace(/&/g, '&amp;'),
  'HTML numeric references': [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  base64: Buffer.from(secret).toString('base64'),
  base64url: Buffer.from(secret).toString('base64url'),
  'HTTP Basic client:secret': Buffer.from(`partner-client:${secret}`).toString('base64'),
  'base64 of a whole form body': Buffer.from(
    new URLSearchParams({ grant_type: 'client_credentials', client_secret: secret }).toString(),
  ).toString('base64'),
});

function scrubberWith(...secrets: string[]): SecretScrubber {
  const scrubber = new SecretScrubber();
  for (const secret of secrets) scrubber.add(secret);
  return scrubber;
}

describe('SecretScrubber', () => {
  it.each(Object.entries(forms(SECRET)))('removes the secret %s', (_name, form) => {
    const text = `error: could not parse "${form}" at offset 3`;
    const out = scrubberWith(SECRET).scrub(text);
    expect(out).not.toContain(form);
    expect(out).toContain(SCRUBBED);
    expect(out.startsWith('error: could not parse "')).toBe(true);
  });

  it('removes a non-ASCII secret percent-encoded as UTF-8 and JSON \\u-escaped', () => {
    const secret = 'Grüße&Küß 42';
    const scrubber = scrubberWith(secret);
    for (const form of [
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      JSON.stringify(secret).slice(1, -1),
      secret.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ]) {
      expect(scrubber.scrub(`x ${form} y`), form).toBe(`x ${SCRUBBED} y`);
    }
  });

  it('leaves text without a secret unchanged, and short values unregistered', () => {
    const scrubber = scrubberWith(SECRET, 'pw');
    const text = 'createTransactionsBulk for account 1001: the service answered 400 INVALID_REQUEST (pw+w/d)';
    expect(scrubber.scrub(text)).toBe(text);
    expect(new SecretScrubber().scrub(SECRET)).toBe(SECRET);
  });

  it('scrubs every registered secret, rotating tokens kept to the newest', () => {
    const scrubber = scrubberWith('client secret 1');
    for (let i = 0; i < 20; i++) scrubber.addRotating(`token-${String(i).padStart(4, '0')}-abcdef`);
    const out = scrubber.scrub('client%20secret%201 / token-0019-abcdef / token-0000-abcdef');
    expect(out).toBe(`${SCRUBBED} / ${SCRUBBED} / token-0000-abcdef`);
  });

  it('scrubs strings inside objects and arrays (a serialized error with its causes)', () => {
    const scrubber = scrubberWith(SECRET);
    const err = {
      message: `bad ${encodeURIComponent(SECRET)}`,
      causes: [{ field: 'client_secret', message: JSON.stringify(SECRET), index: 2 }],
      cause: { message: 'inner', stack: `at ${SECRET}` },
    };
    expect(scrubber.scrubDeep(err)).toEqual({
      message: `bad ${SCRUBBED}`,
      causes: [{ field: 'client_secret', message: `"${SCRUBBED}"`, index: 2 }],
      cause: { message: 'inner', stack: `at ${SCRUBBED}` },
    });
  });

  it('base64 cores cover the secret at every byte alignment', () => {
    const cores = base64Cores(SECRET);
    for (const prefix of ['', 'a', 'ab', 'abc:', 'user:']) {
      const encoded = Buffer.from(`${prefix}${SECRET}!`).toString('base64');
      expect(
        cores.some((core) => encoded.includes(core)),
        prefix,
      ).toBe(true);
    }
  });
});
