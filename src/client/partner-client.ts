import {
  type Account,
  type BankAccount,
  type BulkInvoicesResponse,
  type BulkPlansResponse,
  type BulkTransactionsResponse,
  type Category,
  type Company,
  type CreateAccountResponse,
  type ExistingTransaction,
  existingTransactions,
  type Invoice,
  LIMITS,
  type Page,
  type RequestBody,
  type RequestQuery,
  type Scenario,
  type Transaction,
  type User,
} from '../contract/index.js';
import { PartnerClientCore } from './client-core.js';
import { splitExternalIds } from './limits.js';

/** Options every helper takes. `retryWrites` only matters for writes (see send-loop.ts). */
export interface HelperOptions {
  signal?: AbortSignal;
  retryWrites?: boolean;
}

export type TransactionInputBody = RequestBody<'createTransactionsBulk'>['transactions'][number];
export type InvoiceCreateBody = RequestBody<'createInvoicesBulk'>['invoices'][number];
export type InvoiceUpdateBody = RequestBody<'updateInvoice'>;
export type PlanBody = RequestBody<'createPlansBulk'>[number];
export type BankAccountCreateBody = RequestBody<'createBankAccount'>;
export type BankAccountUpdateBody = RequestBody<'updateBankAccount'>;
export type UserCreateBody = RequestBody<'createUser'>;
export type UserUpdateBody = RequestBody<'updateUser'>;
export type AccountCreateBody = RequestBody<'createAccount'>;
export type AccountUpdateBody = RequestBody<'updateAccount'>;
export type CategoryCreateBody = RequestBody<'createCategory'>;
export type CategoryUpdateBody = RequestBody<'updateCategory'>;
export type InvoiceTypeFilter = RequestQuery<'listInvoices'>['invoiceTypeFilter'];

/**
 * The client the sync engine uses: the generic `call` plus thin typed helpers for what a chunk
 * needs. Every helper takes the tenant (`accountId`) first; limits are checked before sending
 * (1..1000 bulk items, 1..1000 IDs per existence check, <= 100 IDs of <= 255 characters per
 * invoice lookup request).
 */
export class PartnerClient extends PartnerClientCore {
  /** The transactions of `externalIds` that already exist in the bank account (one request). */
  async checkTransactionsExist(
    accountId: number,
    bankAccountId: number,
    externalIds: readonly string[],
    options: HelperOptions = {},
  ): Promise<ExistingTransaction[]> {
    const response = await this.call('checkTransactionsExist', {
      ...options,
      accountId,
      body: { bankAccountId, externalIds: [...externalIds] },
    });
    return existingTransactions(response);
  }

  /** One transaction by the service's id (a booking held in another shape is compared with it). */
  async getTransaction(
    accountId: number,
    transactionId: number,
    options: HelperOptions = {},
  ): Promise<Transaction> {
    const response = await this.call('getTransaction', {
      ...options,
      accountId,
      params: { id: transactionId },
    });
    return response.data;
  }

  /** One bulk create of 1..1000 transactions; a 500 or lost answer raises AMBIGUOUS_WRITE. */
  createTransactionsBulk(
    accountId: number,
    bankAccountId: number,
    transactions: readonly TransactionInputBody[],
    options: HelperOptions = {},
  ): Promise<BulkTransactionsResponse> {
    return this.call('createTransactionsBulk', {
      ...options,
      accountId,
      body: { bankAccountId, transactions: [...transactions] },
    });
  }

  /**
   * Every page of a bank account's transactions at the largest page size the spec allows, as the
   * spec's iteration rule reads them (each page retried per the spec's rules).
   */
  transactionPages(
    accountId: number,
    bankAccountId: number,
    options: HelperOptions = {},
  ): AsyncGenerator<Page<Transaction>> {
    return this.pages('listTransactions', {
      ...options,
      accountId,
      query: { bankAccountId, pageSize: LIMITS.page.maxPageSize },
    });
  }

  /** Every page of the account's invoices of one type family, at the largest page size. */
  invoicePages(
    accountId: number,
    invoiceTypeFilter: InvoiceTypeFilter,
    options: HelperOptions = {},
  ): AsyncGenerator<Page<Invoice>> {
    return this.pages('listInvoices', {
      ...options,
      accountId,
      query: { invoiceTypeFilter, pageSize: LIMITS.page.maxPageSize },
    });
  }

  /** One page of invoices. */
  listInvoices(
    accountId: number,
    query: RequestQuery<'listInvoices'>,
    options: HelperOptions = {},
  ): Promise<Page<Invoice>> {
    return this.call('listInvoices', { ...options, accountId, query });
  }

  /**
   * The invoices carrying any of `externalIds`: requests of at most 100 IDs each, every page of
   * each. An ID longer than 255 characters refuses the whole lookup before anything is sent.
   */
  async lookupInvoicesByExternalIds(
    accountId: number,
    invoiceTypeFilter: InvoiceTypeFilter,
    externalIds: readonly string[],
    options: HelperOptions = {},
  ): Promise<Invoice[]> {
    const groups = splitExternalIds('listInvoices', accountId, externalIds);
    const found: Invoice[] = [];
    for (const group of groups) {
      const query = { invoiceTypeFilter, externalId: group, pageSize: LIMITS.page.maxPageSize };
      for await (const invoice of this.items('listInvoices', { ...options, accountId, query })) {
        found.push(invoice);
      }
    }
    return found;
  }

  createInvoicesBulk(
    accountId: number,
    invoices: readonly InvoiceCreateBody[],
    options: HelperOptions = {},
  ): Promise<BulkInvoicesResponse> {
    return this.call('createInvoicesBulk', { ...options, accountId, body: { invoices: [...invoices] } });
  }

  async updateInvoice(
    accountId: number,
    invoiceId: number,
    invoiceTypeFilter: InvoiceTypeFilter,
    patch: InvoiceUpdateBody,
    options: HelperOptions = {},
  ): Promise<Invoice> {
    const response = await this.call('updateInvoice', {
      ...options,
      accountId,
      params: { id: invoiceId },
      query: { invoiceTypeFilter },
      body: patch,
    });
    return response.data;
  }

  createPlansBulk(
    accountId: number,
    plans: readonly PlanBody[],
    options: HelperOptions = {},
  ): Promise<BulkPlansResponse> {
    return this.call('createPlansBulk', { ...options, accountId, body: [...plans] });
  }

  async listBankAccounts(accountId: number, options: HelperOptions = {}): Promise<BankAccount[]> {
    const response = await this.call('listBankAccounts', { ...options, accountId });
    return response.data;
  }

  async createBankAccount(
    accountId: number,
    bankAccount: BankAccountCreateBody,
    options: HelperOptions = {},
  ): Promise<BankAccount> {
    const response = await this.call('createBankAccount', { ...options, accountId, body: bankAccount });
    return response.data;
  }

  async updateBankAccount(
    accountId: number,
    bankAccountId: number,
    patch: BankAccountUpdateBody,
    options: HelperOptions = {},
  ): Promise<BankAccount> {
    const response = await this.call('updateBankAccount', {
      ...options,
      accountId,
      params: { id: bankAccountId },
      body: patch,
    });
    return response.data;
  }

  listCategories(accountId: number, options: HelperOptions = {}): Promise<Category[]> {
    return this.call('listCategories', { ...options, accountId });
  }

  /** One category; a 500 or lost answer raises AMBIGUOUS_WRITE (the API has no bulk create of categories). */
  createCategory(
    accountId: number,
    category: CategoryCreateBody,
    options: HelperOptions = {},
  ): Promise<Category> {
    return this.call('createCategory', { ...options, accountId, body: category });
  }

  updateCategory(
    accountId: number,
    categoryId: number,
    patch: CategoryUpdateBody,
    options: HelperOptions = {},
  ): Promise<Category> {
    return this.call('updateCategory', { ...options, accountId, params: { id: categoryId }, body: patch });
  }

  /**
   * Every customer account of the partner credentials (no X-Account-Id), read at the largest page
   * size: the API finds an account by no other way than listing them.
   */
  listAccounts(options: HelperOptions = {}): Promise<Account[]> {
    return this.all('listAccounts', { ...options, query: { pageSize: LIMITS.page.maxPageSize } });
  }

  /**
   * One customer account with its company and initial admin (no X-Account-Id); a 500 or lost answer
   * raises AMBIGUOUS_WRITE.
   */
  createAccount(account: AccountCreateBody, options: HelperOptions = {}): Promise<CreateAccountResponse> {
    return this.call('createAccount', { ...options, body: account });
  }

  /** The account's company name: the path names the account, and so does X-Account-Id. */
  async updateAccount(
    accountId: number,
    patch: AccountUpdateBody,
    options: HelperOptions = {},
  ): Promise<Account> {
    const response = await this.call('updateAccount', {
      ...options,
      accountId,
      params: { id: accountId },
      body: patch,
    });
    return response.data;
  }

  listScenarios(accountId: number, options: HelperOptions = {}): Promise<Scenario[]> {
    return this.call('listScenarios', { ...options, accountId });
  }

  /** Every company of the account, read at the largest page size (a user belongs to one). */
  listCompanies(accountId: number, options: HelperOptions = {}): Promise<Company[]> {
    return this.all('listCompanies', { ...options, accountId, query: { pageSize: LIMITS.page.maxPageSize } });
  }

  /**
   * Every user of the account, read at the largest page size: the API has no lookup of users by
   * externalId, and an account's users are bounded by its subscription.
   */
  listUsers(accountId: number, options: HelperOptions = {}): Promise<User[]> {
    return this.all('listUsers', { ...options, accountId, query: { pageSize: LIMITS.page.maxPageSize } });
  }

  /** One user; a 500 or lost answer raises AMBIGUOUS_WRITE (the service has no bulk create of users). */
  async createUser(accountId: number, user: UserCreateBody, options: HelperOptions = {}): Promise<User> {
    const response = await this.call('createUser', { ...options, accountId, body: user });
    return response.data;
  }

  async updateUser(
    accountId: number,
    userId: number,
    patch: UserUpdateBody,
    options: HelperOptions = {},
  ): Promise<User> {
    const response = await this.call('updateUser', {
      ...options,
      accountId,
      params: { userId },
      body: patch,
    });
    return response.data;
  }
}
