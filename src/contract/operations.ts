import type { z } from 'zod';
import type { Scope } from './enums.js';
import { DeleteEnvelope, itemOf, listOf, PageQuery, pageOf } from './envelopes.js';
import {
  Account,
  Company,
  CreateAccountRequest,
  CreateAccountResponse,
  CreateUserRequest,
  ListAccountsQuery,
  UpdateAccountRequest,
  UpdateUserRequest,
  User,
} from './resources/accounts.js';
import { SsoInitRequest, SsoInitResponse, VerifyAuthResponse } from './resources/auth.js';
import {
  Balance,
  BankAccount,
  BankAccountCreate,
  BankAccountUpdate,
  ConvertRequest,
} from './resources/bank-accounts.js';
import {
  BulkInvoicesRequest,
  BulkInvoicesResponse,
  Invoice,
  InvoiceCreate,
  InvoiceTypeQuery,
  InvoiceUpdate,
  ListInvoicesQuery,
} from './resources/invoices.js';
import {
  BulkPlansRequest,
  BulkPlansResponse,
  Category,
  CreateCategoryRequest,
  CreatePlanResponse,
  DeletePlansQuery,
  DeletePlansResponse,
  PlanRequest,
  Scenario,
  UpdateCategoryRequest,
} from './resources/planning.js';
import {
  BulkTransactionsRequest,
  BulkTransactionsResponse,
  CreateTransactionRequest,
  ExistsRequest,
  ExistsResponse,
  ListTransactionsQuery,
  Transaction,
  TransactionUpdate,
} from './resources/transactions.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One row of the operation table: everything needed to send (client) or answer (sandbox) a call. */
export interface OperationSpec {
  readonly method: HttpMethod;
  /** Relative to {base_url}; `{name}` marks a path parameter. */
  readonly path: string;
  /** Whether the call carries X-Account-Id (spec: all partner requests unless noted). */
  readonly accountHeader: boolean;
  /** Scope required; null = any valid token. Assumption: reads need api:read, writes api:write. */
  readonly scope: Scope | null;
  /** false where the spec does not show method and path and the row is our assumption. */
  readonly shownBySpec: boolean;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
}

const read = 'api:read' as const;
const write = 'api:write' as const;

/** The only place paths live. Override method/path per deployment with `resolveOperations`. */
export const OPERATIONS = {
  // Authentication
  verifyAuth: {
    method: 'GET',
    path: '/authentication/verify-auth',
    accountHeader: true,
    scope: null,
    shownBySpec: true,
    response: VerifyAuthResponse,
  },
  ssoInit: {
    method: 'POST',
    path: '/authentication/sso/init',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    body: SsoInitRequest,
    response: SsoInitResponse,
  },

  // Accounts (no X-Account-Id on create and list)
  createAccount: {
    method: 'POST',
    path: '/accounts',
    accountHeader: false,
    scope: write,
    shownBySpec: false,
    body: CreateAccountRequest,
    response: CreateAccountResponse,
  },
  listAccounts: {
    method: 'GET',
    path: '/accounts',
    accountHeader: false,
    scope: read,
    shownBySpec: false,
    query: ListAccountsQuery,
    response: pageOf(Account),
  },
  getAccount: {
    method: 'GET',
    path: '/accounts/{id}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: itemOf(Account),
  },
  updateAccount: {
    method: 'PATCH',
    path: '/accounts/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: UpdateAccountRequest,
    response: itemOf(Account),
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/accounts/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    response: DeleteEnvelope,
  },

  // Companies (read only)
  listCompanies: {
    method: 'GET',
    path: '/companies',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    query: PageQuery,
    response: pageOf(Company),
  },
  getCompany: {
    method: 'GET',
    path: '/companies/{id}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: itemOf(Company),
  },

  // Users
  createUser: {
    method: 'POST',
    path: '/users',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    body: CreateUserRequest,
    response: itemOf(User),
  },
  listUsers: {
    method: 'GET',
    path: '/users',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    query: PageQuery,
    response: pageOf(User),
  },
  getUser: {
    method: 'GET',
    path: '/users/{userId}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: itemOf(User),
  },
  updateUser: {
    method: 'PATCH',
    path: '/users/{userId}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: UpdateUserRequest,
    response: itemOf(User),
  },
  deleteUser: {
    method: 'DELETE',
    path: '/users/{userId}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    response: DeleteEnvelope,
  },

  // Categories (bare objects, no envelope)
  listCategories: {
    method: 'GET',
    path: '/categories',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: Category.array(),
  },
  createCategory: {
    method: 'POST',
    path: '/categories',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: CreateCategoryRequest,
    response: Category,
  },
  getCategory: {
    method: 'GET',
    path: '/categories/{id}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: Category,
  },
  updateCategory: {
    method: 'PATCH',
    path: '/categories/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: UpdateCategoryRequest,
    response: Category,
  },
  deleteCategory: {
    method: 'DELETE',
    path: '/categories/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    response: DeleteEnvelope,
  },

  // Scenarios (bare)
  listScenarios: {
    method: 'GET',
    path: '/scenarios',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: Scenario.array(),
  },
  getScenario: {
    method: 'GET',
    path: '/scenarios/{scenarioId}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: Scenario,
  },

  // Plans
  createPlan: {
    method: 'POST',
    path: '/plans',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    body: PlanRequest,
    response: CreatePlanResponse,
  },
  createPlansBulk: {
    method: 'POST',
    path: '/plans/bulk',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: BulkPlansRequest,
    response: BulkPlansResponse,
  },
  deletePlans: {
    method: 'DELETE',
    path: '/plans',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    query: DeletePlansQuery,
    response: DeletePlansResponse,
  },

  // Bank accounts
  listBankAccounts: {
    method: 'GET',
    path: '/bank-accounts',
    accountHeader: true,
    scope: read,
    shownBySpec: true,
    response: listOf(BankAccount),
  },
  createBankAccount: {
    method: 'POST',
    path: '/bank-accounts',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: BankAccountCreate,
    response: itemOf(BankAccount),
  },
  getBankAccount: {
    method: 'GET',
    path: '/bank-accounts/{id}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: itemOf(BankAccount),
  },
  updateBankAccount: {
    method: 'PATCH',
    path: '/bank-accounts/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: BankAccountUpdate,
    response: itemOf(BankAccount),
  },
  deleteBankAccount: {
    method: 'DELETE',
    path: '/bank-accounts/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    response: DeleteEnvelope,
  },
  listBankAccountBalances: {
    method: 'GET',
    path: '/bank-accounts/{id}/balances',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    query: PageQuery,
    response: pageOf(Balance),
  },
  convertBankAccount: {
    method: 'POST',
    path: '/bank-accounts/{id}/convert',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: ConvertRequest,
    response: itemOf(BankAccount),
  },

  // Bank account transactions
  listTransactions: {
    method: 'GET',
    path: '/bank-account-transactions',
    accountHeader: true,
    scope: read,
    shownBySpec: true,
    query: ListTransactionsQuery,
    response: pageOf(Transaction),
  },
  createTransaction: {
    method: 'POST',
    path: '/bank-account-transactions',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: CreateTransactionRequest,
    response: itemOf(Transaction),
  },
  createTransactionsBulk: {
    method: 'POST',
    path: '/bank-account-transactions/bulk',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: BulkTransactionsRequest,
    response: BulkTransactionsResponse,
  },
  checkTransactionsExist: {
    method: 'POST',
    path: '/bank-account-transactions/exists',
    accountHeader: true,
    scope: read,
    shownBySpec: true,
    body: ExistsRequest,
    response: ExistsResponse,
  },
  getTransaction: {
    method: 'GET',
    path: '/bank-account-transactions/{id}',
    accountHeader: true,
    scope: read,
    shownBySpec: false,
    response: itemOf(Transaction),
  },
  updateTransaction: {
    method: 'PATCH',
    path: '/bank-account-transactions/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: false,
    body: TransactionUpdate,
    response: itemOf(Transaction),
  },

  // Invoices
  listInvoices: {
    method: 'GET',
    path: '/invoices',
    accountHeader: true,
    scope: read,
    shownBySpec: true,
    query: ListInvoicesQuery,
    response: pageOf(Invoice),
  },
  getInvoice: {
    method: 'GET',
    path: '/invoices/{id}',
    accountHeader: true,
    scope: read,
    shownBySpec: true,
    query: InvoiceTypeQuery,
    response: itemOf(Invoice),
  },
  createInvoice: {
    method: 'POST',
    path: '/invoices',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    body: InvoiceCreate,
    response: itemOf(Invoice),
  },
  createInvoicesBulk: {
    method: 'POST',
    path: '/invoices/bulk',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    body: BulkInvoicesRequest,
    response: BulkInvoicesResponse,
  },
  updateInvoice: {
    method: 'PATCH',
    path: '/invoices/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    query: InvoiceTypeQuery,
    body: InvoiceUpdate,
    response: itemOf(Invoice),
  },
  deleteInvoice: {
    method: 'DELETE',
    path: '/invoices/{id}',
    accountHeader: true,
    scope: write,
    shownBySpec: true,
    query: InvoiceTypeQuery,
    response: DeleteEnvelope,
  },
} as const satisfies Record<string, OperationSpec>;

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;

/** Path parameter names of a path template: '/users/{userId}' -> 'userId'. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParams<Rest>
  : never;

export type RequestBody<N extends OperationName> = Operations[N] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
export type RequestQuery<N extends OperationName> = Operations[N] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
export type ResponseOf<N extends OperationName> = z.output<Operations[N]['response']>;

/** Deployment overrides of the table (e.g. a gateway that mounts a path elsewhere). */
export type OperationOverrides = Partial<Record<OperationName, { method?: HttpMethod; path?: string }>>;

export type OperationTable = { readonly [N in OperationName]: OperationSpec & Operations[N] };

export function resolveOperations(overrides: OperationOverrides = {}): OperationTable {
  const table = { ...OPERATIONS } as Record<OperationName, OperationSpec>;
  for (const [name, override] of Object.entries(overrides) as [
    OperationName,
    OperationOverrides[OperationName],
  ][]) {
    if (!(name in OPERATIONS)) throw new Error(`unknown operation "${name}" in operation overrides`);
    if (override) table[name] = { ...OPERATIONS[name], ...override };
  }
  return table as OperationTable;
}

/** Fills `{name}` placeholders, URL-encoding each value; throws when one is missing. */
export function expandPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path parameter "${name}" missing for ${template}`);
    return encodeURIComponent(String(value));
  });
}
