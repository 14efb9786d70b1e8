import { handlers, ok, type RequestContext } from '../context.js';
import { notFound, SandboxFault } from '../fault.js';
import { paginate } from '../pagination.js';
import { addAccountDefaults, addCategories, DEFAULT_CATEGORY_TREE, DEFAULT_SUBSCRIPTION } from '../seed.js';
import {
  type AccountRecord,
  type CompanyRecord,
  emptyAccount,
  publicView,
  type UserRecord,
} from '../state.js';
import { findAccountByExternalId, indexAccount, unindexAccount } from './directory-index.js';
import { pathId, recordAt } from './path-ids.js';
import { assertEmailFree, DEFAULT_LANGUAGE, userView } from './users.js';

/** The account as the API shows it: no partner id, no nested collections. */
function accountView(account: AccountRecord) {
  return {
    id: account.id,
    externalId: account.externalId,
    companyName: account.companyName,
    status: account.status,
    subscriptionInformation: { ...account.subscriptionInformation },
  };
}

/** The implicit default company: the first one, created with the account. */
function mainCompany(account: AccountRecord): CompanyRecord | undefined {
  return account.companies.values().next().value;
}

/**
 * Get/update/delete name the account twice, in the path and in X-Account-Id (the frame has
 * already resolved the header). A path id other than the header's is answered like an
 * inaccessible account, 404, so a client that mixes two accounts up cannot act on either.
 */
function targetAccount(ctx: RequestContext<'getAccount' | 'updateAccount' | 'deleteAccount'>): AccountRecord {
  const id = pathId(ctx.params, 'id');
  if (id !== ctx.account.id) {
    throw notFound(
      'ACCOUNT_NOT_FOUND',
      `Account ${id} does not match X-Account-Id ${ctx.account.id}; send the same account id in the path and the header`,
    );
  }
  return ctx.account;
}

export const accountsHandlers = handlers({
  createAccount: {
    handle(ctx) {
      const { body, partner, state } = ctx;
      if (findAccountByExternalId(state, partner.id, body.externalId)) {
        throw new SandboxFault(
          409,
          'ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS',
          `This partner already has an account with externalId "${body.externalId}"; look it up with GET /accounts or choose another externalId`,
          [{ field: 'externalId', message: 'already used for this partner' }],
        );
      }
      assertEmailFree(state, body.user.email, 'user.email');

      const account = emptyAccount({
        id: state.nextId(),
        externalId: body.externalId,
        companyName: body.companyName,
        status: 'ACTIVE',
        partnerId: partner.id,
        subscriptionInformation: { ...DEFAULT_SUBSCRIPTION },
      });
      const companyId = addAccountDefaults(state, account, body.companyName);
      addCategories(state, account, DEFAULT_CATEGORY_TREE, null);
      const user: UserRecord = {
        id: state.nextId(),
        externalId: body.user.externalId,
        email: body.user.email,
        firstName: body.user.firstName,
        lastName: body.user.lastName,
        role: 'ADMIN',
        companyId,
        language: body.user.language ?? DEFAULT_LANGUAGE,
        active: true,
      };
      account.users.set(user.id, user);
      state.accounts.set(account.id, account);
      indexAccount(state, account);

      const company = account.companies.get(companyId);
      return ok({
        success: true,
        message: 'Account created',
        account: accountView(account),
        user: userView(user),
        company: company && publicView(company),
      });
    },
  },

  listAccounts: {
    handle(ctx) {
      const { partner, query, state } = ctx;
      const accounts = [...state.accounts.values()]
        .filter(
          (a) => a.partnerId === partner.id && (query.status === undefined || a.status === query.status),
        )
        .sort((a, b) => a.id - b.id)
        .map(accountView);
      return ok(paginate(accounts, query));
    },
  },

  getAccount: {
    handle: (ctx) => ok({ success: true, message: 'OK', data: accountView(targetAccount(ctx)) }),
  },

  updateAccount: {
    handle(ctx) {
      const account = targetAccount(ctx);
      const { companyName } = ctx.body;
      if (companyName !== undefined) {
        account.companyName = companyName;
        // companyName is "the name of the account's main company" (spec), so the company follows.
        const company = mainCompany(account);
        if (company) company.name = companyName;
      }
      return ok({ success: true, message: 'Account updated', data: accountView(account) });
    },
  },

  deleteAccount: {
    handle(ctx) {
      const account = targetAccount(ctx);
      ctx.state.accounts.delete(account.id);
      unindexAccount(ctx.state, account);
      return ok({ success: true, message: 'Account deleted', id: account.id });
    },
  },

  listCompanies: {
    handle: (ctx) => ok(paginate([...ctx.account.companies.values()].map(publicView), ctx.query)),
  },

  getCompany: {
    handle(ctx) {
      const company = recordAt(ctx.account.companies, ctx.params, 'id', 'COMPANY_NOT_FOUND', 'company');
      return ok({ success: true, message: 'OK', data: publicView(company) });
    },
  },
});
