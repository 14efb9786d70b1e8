import { describe, expect, it } from 'vitest';
import { authorized } from '../../../src/ops/admin-auth.js';

const TOKEN = 'dashboard-token-0123456789';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('dashboard credentials', () => {
  it('lets everyone in when none are configured (the server is then on loopback)', () => {
    expect(authorized(undefined, {})).toBe(true);
    expect(authorized('Bearer anything', {})).toBe(true);
  });

  it('accepts the token as a bearer token, or as the basic-auth password with any user (browsers)', () => {
    const credentials = { token: TOKEN };
    expect(authorized(`Bearer ${TOKEN}`, credentials)).toBe(true);
    expect(authorized(`bearer  ${TOKEN}`, credentials)).toBe(true);
    expect(authorized(basic('anyone', TOKEN), credentials)).toBe(true);
    expect(authorized(undefined, credentials)).toBe(false);
    expect(authorized('', credentials)).toBe(false);
    expect(authorized(`Bearer ${TOKEN}x`, credentials)).toBe(false);
    expect(authorized(`Bearer ${TOKEN.slice(0, -1)}`, credentials)).toBe(false);
    expect(authorized(basic(TOKEN, 'wrong'), credentials)).toBe(false);
    expect(authorized(`Token ${TOKEN}`, credentials)).toBe(false);
  });

  it('accepts the configured user and password by basic auth, both of them right', () => {
    const credentials = { basic: { user: 'ops', password: 'pass:with:colons' } };
    expect(authorized(basic('ops', 'pass:with:colons'), credentials)).toBe(true);
    expect(authorized(basic('ops', 'pass:with'), credentials)).toBe(false);
    expect(authorized(basic('Ops', 'pass:with:colons'), credentials)).toBe(false);
    expect(authorized(`Basic ${Buffer.from('ops').toString('base64')}`, credentials)).toBe(false);
    expect(authorized('Bearer pass:with:colons', credentials)).toBe(false);
  });

  it('accepts either when both are configured', () => {
    const credentials = { token: TOKEN, basic: { user: 'ops', password: 'a-password-here' } };
    expect(authorized(basic('ops', 'a-password-here'), credentials)).toBe(true);
    expect(authorized(`Bearer ${TOKEN}`, credentials)).toBe(true);
    expect(authorized(basic('ops', 'nope'), credentials)).toBe(false);
  });
});
