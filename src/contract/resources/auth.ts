import * as z from 'zod';
import { LIMITS } from '../limits.js';
import { int64 } from '../primitives.js';

/** Form fields of POST {auth_url}/oauth2/token (form-encoded, not JSON). */
export const TokenRequest = z.strictObject({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  /** Optional in OAuth 2.0; the spec's flow does not send it. */
  scope: z.string().optional(),
});
export type TokenRequest = z.output<typeof TokenRequest>;

export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
});
export type TokenResponse = z.output<typeof TokenResponse>;

export const VerifyAuthResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  name: z.string(),
});
export type VerifyAuthResponse = z.output<typeof VerifyAuthResponse>;

export const SsoInitRequest = z.strictObject({ userId: int64 });
export type SsoInitRequest = z.output<typeof SsoInitRequest>;

export const SsoInitResponse = z.looseObject({
  initToken: z.string().min(1),
  expiresIn: z
    .int()
    .check(z.gte(LIMITS.initTokenLifetimeSeconds.min), z.lte(LIMITS.initTokenLifetimeSeconds.max)),
  expiresAt: z.string(),
});
export type SsoInitResponse = z.output<typeof SsoInitResponse>;

/** Claims of the RS256 init token; more may be added and are opaque. */
export const InitTokenClaims = z.looseObject({
  iss: z.string(),
  aud: z.string(),
  sub: z.string(),
  accountId: int64,
  partnerId: z.string(),
  iat: z.int(),
  exp: z.int(),
  jti: z.string(),
});
export type InitTokenClaims = z.output<typeof InitTokenClaims>;
