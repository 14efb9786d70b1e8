import type {
  AccountStatus,
  BankAccountProvider,
  CategoryType,
  InvoiceStatus,
  InvoiceType,
  PlanPeriod,
  Scope,
  SubscriptionInformation,
  UserRole,
} from '../contract/index.js';

/**
 * The sandbox's whole world, in memory. Records are stored in the shape the API returns them
 * (plus a few internal fields prefixed with an underscore that responses must not show).
 */
export interface ClientRecord {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
  partnerId: string;
}

export interface PartnerRecord {
  id: string;
  name: string;
  ssoEnabled: boolean;
}

export interface CompanyRecord {
  id: number;
  name: string;
}

export interface UserRecord {
  id: number;
  externalId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  companyId: number;
  language: string;
  active: boolean;
}

export interface CategoryRecord {
  id: number;
  name: string;
  type: CategoryType;
  parentId: number | null;
  enabledForPlannedTransactions: boolean;
}

export interface ScenarioRecord {
  id: number;
  name: string;
  isBaseCase: boolean;
}

export interface PlanRecord {
  id: number;
  categoryId: number;
  scenarioId: number;
  amount: number;
  period: PlanPeriod;
  date: string;
  type: 'ONE_TIME';
  name: string;
}

export interface TransactionRecord {
  id: number;
  bankAccountId: number;
  externalId: string;
  bookingDate: string;
  valueDate: string | null;
  amount: number;
  currency: string | null;
  purpose: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  categoryId: number | null;
}

export interface BankAccountRecord {
  id: number;
  companyId: number;
  iban: string | null;
  accountNumber: string | null;
  accountCurrency: string;
  accountName: string;
  bankName: string;
  balanceReference: number | null;
  balanceDate: string | null;
  accountType: string;
  externalId: string | null;
  visible: boolean;
  provider: BankAccountProvider;
  /** Sandbox-clock millis of the last provider conversion (30-day rule). */
  _lastConvertedAt: number | null;
}

export interface InvoiceRecord {
  id: number;
  externalId: string | null;
  invoiceType: InvoiceType;
  invoiceStatus: InvoiceStatus | null;
  invoiceNumber: string;
  contactName: string;
  totalGrossAmount: number;
  openAmount: number | null;
  invoiceDate: string | null;
  dueDate: string | null;
  paidDate: string | null;
  note: string | null;
  categoryId: number | null;
  /** `API` for invoices created through the API, `ERP` for read-only ERP-integration invoices. */
  origin: 'API' | 'ERP';
}

export interface AccountRecord {
  id: number;
  externalId: string;
  companyName: string;
  status: AccountStatus;
  partnerId: string;
  subscriptionInformation: SubscriptionInformation;
  companies: Map<number, CompanyRecord>;
  users: Map<number, UserRecord>;
  categories: Map<number, CategoryRecord>;
  scenarios: Map<number, ScenarioRecord>;
  plans: Map<number, PlanRecord>;
  bankAccounts: Map<number, BankAccountRecord>;
  /**
   * Transactions by bank account id, each list in id order: ids only grow and a deletion (the admin
   * endpoint) splices in place, so appending keeps it sorted and a lookup by id binary-searches it (a
   * map by id made every bulk-created record pay a hash insert). Plus an externalId index per bank
   * account.
   */
  transactions: Map<number, TransactionRecord[]>;
  transactionsByExternalId: Map<number, Map<string, TransactionRecord>>;
  invoices: Map<number, InvoiceRecord>;
}

export interface SandboxState {
  partners: Map<string, PartnerRecord>;
  clients: Map<string, ClientRecord>;
  accounts: Map<number, AccountRecord>;
  /** One id sequence for every resource, so ids never collide across kinds (easier debugging). */
  nextId(): number;
}

export function createState(firstId: number): SandboxState {
  let next = firstId;
  return {
    partners: new Map(),
    clients: new Map(),
    accounts: new Map(),
    nextId: () => next++,
  };
}

export function emptyAccount(
  fields: Pick<
    AccountRecord,
    'id' | 'externalId' | 'companyName' | 'status' | 'partnerId' | 'subscriptionInformation'
  >,
): AccountRecord {
  return {
    ...fields,
    companies: new Map(),
    users: new Map(),
    categories: new Map(),
    scenarios: new Map(),
    plans: new Map(),
    bankAccounts: new Map(),
    transactions: new Map(),
    transactionsByExternalId: new Map(),
    invoices: new Map(),
  };
}

/** Strips internal `_` fields before a record leaves the sandbox. */
export function publicView<T extends object>(record: T): Omit<T, `_${string}`> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) out[key] = value;
  return out as Omit<T, `_${string}`>;
}
