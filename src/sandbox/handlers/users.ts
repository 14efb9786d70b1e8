import { handlers, ok } from '../context.js';
import { SandboxFault } from '../fault.js';
import { paginate } from '../pagination.js';
import { type AccountRecord, publicView, type UserRecord } from '../state.js';
import { companyIdOr404 } from './company-ref.js';
import { findUserByEmail, findUserByExternalId, putUser, removeUser } from './directory-index.js';
import { recordAt } from './path-ids.js';

/** Language of a user created without one (the seed's default too). */
export const DEFAULT_LANGUAGE = 'de-DE';

export const userView = (user: UserRecord) => publicView(user);

const userAt = (account: AccountRecord, params: Readonly<Record<string, string>>) =>
  recordAt(account.users, params, 'userId', 'USER_NOT_FOUND', 'user');

/** 409 USER_EMAIL_ALREADY_EXISTS: emails are unique across the whole sandbox, not per account. */
export function assertEmailFree(state: Parameters<typeof findUserByEmail>[0], email: string, field: string) {
  if (findUserByEmail(state, email)) {
    throw new SandboxFault(
      409,
      'USER_EMAIL_ALREADY_EXISTS',
      `The email ${email} is already in use by another user; use a different email address`,
      [{ field, message: 'already in use' }],
    );
  }
}

/** Users of the subscription: maxAllowedUsers plus userAddons; no limit when the plan names none. */
function userLimit(account: AccountRecord): number {
  const sub = account.subscriptionInformation;
  return (sub.maxAllowedUsers ?? Number.POSITIVE_INFINITY) + (sub.userAddons ?? 0);
}

export const usersHandlers = handlers({
  createUser: {
    handle(ctx) {
      const { account, body, state } = ctx;
      companyIdOr404(account, body.companyId);
      // Conflicts come before the limit: a client re-sending a user it already created learns that first.
      if (findUserByExternalId(account, body.externalId)) {
        throw new SandboxFault(
          409,
          'USER_EXTERNAL_ID_ALREADY_EXISTS',
          `A user with externalId "${body.externalId}" already exists in this account; use it or choose another externalId`,
          [{ field: 'externalId', message: 'already used in the account' }],
        );
      }
      assertEmailFree(state, body.email, 'email');
      const limit = userLimit(account);
      if (account.users.size >= limit) {
        throw new SandboxFault(
          400,
          'MAX_USERS_REACHED',
          `The account has ${account.users.size} users, the limit of its subscription (${limit}); delete a user or extend the subscription first`,
        );
      }
      const user: UserRecord = {
        id: state.nextId(),
        externalId: body.externalId,
        email: body.email,
        firstName: body.firstName,
        lastName: body.lastName,
        role: body.role,
        companyId: body.companyId,
        language: body.language ?? DEFAULT_LANGUAGE,
        active: true,
      };
      putUser(state, account, user);
      return ok({ success: true, message: 'User created', data: userView(user) });
    },
  },

  listUsers: {
    handle: (ctx) => ok(paginate([...ctx.account.users.values()].map(userView), ctx.query)),
  },

  getUser: {
    handle: (ctx) => ok({ success: true, message: 'OK', data: userView(userAt(ctx.account, ctx.params)) }),
  },

  updateUser: {
    handle(ctx) {
      const user = userAt(ctx.account, ctx.params);
      if (ctx.body.firstName !== undefined) user.firstName = ctx.body.firstName;
      if (ctx.body.lastName !== undefined) user.lastName = ctx.body.lastName;
      return ok({ success: true, message: 'User updated', data: userView(user) });
    },
  },

  deleteUser: {
    handle(ctx) {
      const { account, state } = ctx;
      const user = userAt(account, ctx.params);
      if (account.users.size === 1) {
        throw new SandboxFault(
          409,
          'USER_CANNOT_BE_DELETED',
          `User ${user.id} is the only user of the account and cannot be deleted; delete the account instead`,
        );
      }
      // An inactive admin cannot administer the account, so only active ones count as remaining admins.
      if (user.role === 'ADMIN' && !hasOtherActiveAdmin(account, user.id)) {
        throw new SandboxFault(
          409,
          'LAST_ADMIN_CANNOT_BE_DELETED',
          `User ${user.id} is the only remaining admin of the account; create another ADMIN user first`,
        );
      }
      removeUser(state, account, user);
      return ok({ success: true, message: 'User deleted', id: user.id });
    },
  },
});

/** Scans the account's users: bounded by the subscription's user limit, and only on delete. */
function hasOtherActiveAdmin(account: AccountRecord, userId: number): boolean {
  for (const other of account.users.values())
    if (other.id !== userId && other.role === 'ADMIN' && other.active) return true;
  return false;
}
