import { handlers, ok } from '../context.js';
import { conflict, notFound, SandboxFault } from '../fault.js';
import { ssoOf } from '../sso.js';

/** Authentication operations: verify-auth, and SSO init (RS256 init tokens for the embedded app). */
export const authHandlers = handlers({
  verifyAuth: {
    handle: (ctx) => ok({ success: true, message: 'Token is valid', name: ctx.partner.name }),
  },

  /**
   * Order of checks: feature (403) before the rate limit (429) so a partner without SSO never burns
   * tokens; the rate limit before the user lookup so the limit also throttles user-id probing; an
   * unknown user or one of another account is 404 USER_NOT_FOUND, never 403 (spec).
   */
  ssoInit: {
    handle: async (ctx) => {
      if (!ctx.partner.ssoEnabled) {
        throw new SandboxFault(403, 'SSO_NOT_ENABLED', 'The partner lacks the embedded SSO feature');
      }
      const sso = ssoOf(ctx.state);
      const retryAfter = sso.throttle(ctx.partner.id, ctx.now);
      if (retryAfter !== undefined) {
        throw new SandboxFault(
          429,
          'RATE_LIMITED',
          `Too many init-token requests for this partner; retry after ${retryAfter} s`,
          undefined,
          { 'retry-after': String(retryAfter) },
        );
      }
      const user = ctx.account.users.get(ctx.body.userId);
      if (!user) throw notFound('USER_NOT_FOUND', 'User does not exist or is not accessible');
      if (!user.active) throw conflict('USER_INACTIVE', 'User is disabled, deleted or blocked from login');
      return ok(
        await sso.mint({
          partnerId: ctx.partner.id,
          accountId: ctx.account.id,
          userId: user.id,
          now: ctx.now,
        }),
      );
    },
  },
});
