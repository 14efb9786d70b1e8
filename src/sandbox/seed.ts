import * as z from 'zod';
import {
  ACCOUNT_STATUSES,
  BANK_ACCOUNT_PROVIDERS,
  BANK_ACCOUNT_TYPES,
  CATEGORY_TYPES,
  type CategoryType,
  CURRENCY_CODES,
  INVOICE_STATUSES,
  INVOICE_TYPES,
  LANGUAGES,
  SCOPES,
  SubscriptionInformation,
  USER_ROLES,
} from '../contract/index.js';
import { bankAccountRecord } from './handlers/bank-accounts.js';
import { insertInvoice } from './handlers/invoice-records.js';
import { type AccountRecord, createState, emptyAccount, type SandboxState } from './state.js';

/** A seed file (`--seed`, YAML or JSON) replaces the default seed below as a whole. */
interface SeedCategory {
  name: string;
  type: CategoryType;
  children?: SeedCategory[] | undefined;
}
const SeedCategory: z.ZodType<SeedCategory> = z.lazy(() =>
  z.strictObject({
    name: z.string().min(1),
    type: z.enum(CATEGORY_TYPES),
    children: z.array(SeedCategory).optional(),
  }),
);

const SeedUser = z.strictObject({
  externalId: z.string().min(1),
  email: z.string().min(3),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  role: z.enum(USER_ROLES).default('ADMIN'),
  language: z.enum(LANGUAGES).default('de-DE'),
  active: z.boolean().default(true),
});

const SeedBankAccount = z.strictObject({
  externalId: z.string().min(1).optional(),
  accountName: z.string().min(1),
  bankName: z.string().min(1),
  accountCurrency: z.enum(CURRENCY_CODES).default('EUR'),
  accountType: z.enum(BANK_ACCOUNT_TYPES).default('CHECKING'),
  provider: z.enum(BANK_ACCOUNT_PROVIDERS),
  iban: z.string().optional(),
  visible: z.boolean().default(true),
  balanceReference: z.number().optional(),
  balanceDate: z.iso.date().optional(),
});

const SeedInvoice = z.strictObject({
  externalId: z.string().min(1).optional(),
  invoiceType: z.enum(INVOICE_TYPES),
  invoiceStatus: z.enum(INVOICE_STATUSES).optional(),
  invoiceNumber: z.string().min(1),
  contactName: z.string().min(1),
  totalGrossAmount: z.number(),
  origin: z.enum(['API', 'ERP']).default('ERP'),
});

const SeedAccount = z.strictObject({
  id: z.int().positive(),
  externalId: z.string().min(1),
  partnerId: z.string().min(1),
  companyName: z.string().min(1),
  status: z.enum(ACCOUNT_STATUSES).default('ACTIVE'),
  subscription: SubscriptionInformation.optional(),
  users: z.array(SeedUser).optional(),
  categories: z.array(SeedCategory).optional(),
  bankAccounts: z.array(SeedBankAccount).default([]),
  invoices: z.array(SeedInvoice).default([]),
});

export const SeedFile = z.strictObject({
  /** Access-token lifetime the sandbox grants (the spec's 3600 unless a test wants expiry). */
  tokenLifetimeSeconds: z.int().positive().default(3600),
  /** First id of the one id sequence; seeded ids must stay below it. */
  firstId: z.int().positive().default(10_000),
  partners: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        name: z.string().min(1),
        ssoEnabled: z.boolean().default(true),
        clients: z
          .array(
            z.strictObject({
              clientId: z.string().min(1),
              clientSecret: z.string().min(1),
              scopes: z.array(z.enum(SCOPES)),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
  accounts: z.array(SeedAccount),
});
export type SeedFile = z.input<typeof SeedFile>;
export type Seed = z.output<typeof SeedFile>;

export const DEFAULT_SUBSCRIPTION: SubscriptionInformation = {
  maxAllowedUsers: 5,
  maxAllowedBankAccounts: 5,
  maxAllowedCompanies: 1,
  bankAccountAddons: 0,
  companyAddons: 0,
  userAddons: 0,
  subscriptionPeriod: 'MONTHLY',
  consolidationAllowed: false,
  aiAnalyticsAllowed: false,
  ebicsAllowed: false,
};

export const DEFAULT_CATEGORY_TREE: SeedCategory[] = [
  { name: 'Revenue', type: 'INCOME_OPERATIONAL', children: [{ name: 'Sales', type: 'INCOME_OPERATIONAL' }] },
  {
    name: 'Operating expenses',
    type: 'EXPENSE_OPERATIONAL',
    children: [
      { name: 'Rent', type: 'EXPENSE_OPERATIONAL' },
      { name: 'Salaries', type: 'EXPENSE_OPERATIONAL' },
      { name: 'Software', type: 'EXPENSE_OPERATIONAL' },
    ],
  },
  {
    name: 'Investments',
    type: 'EXPENSE_INVESTMENT',
    children: [{ name: 'Equipment', type: 'EXPENSE_INVESTMENT' }],
  },
  { name: 'Financing', type: 'INCOME_FINANCING', children: [{ name: 'Loans', type: 'INCOME_FINANCING' }] },
];

/** Where plans without a category go (spec: negative -> uncategorized expenses, positive -> income). */
export const UNCATEGORIZED = {
  income: { name: 'Uncategorized income', type: 'INCOME_OPERATIONAL' },
  expense: { name: 'Uncategorized expenses', type: 'EXPENSE_OPERATIONAL' },
} as const satisfies Record<string, SeedCategory>;

function demoAccount(id: number, externalId: string, companyName: string, partnerId: string) {
  return {
    id,
    externalId,
    partnerId,
    companyName,
    bankAccounts: [
      {
        externalId: 'main',
        accountName: 'Main account',
        bankName: 'Sandbox Bank',
        provider: 'PARTNER' as const,
        iban: 'DE02120300000000202051',
      },
      {
        externalId: 'online',
        accountName: 'Online account',
        bankName: 'Sandbox Bank',
        provider: 'ONLINE' as const,
      },
    ],
  };
}

/** The documented default seed (README, "Sandbox"). */
export const DEFAULT_SEED: SeedFile = {
  partners: [
    {
      id: 'demo-partner',
      name: 'Demo Partner',
      clients: [
        { clientId: 'sandbox-client', clientSecret: 'sandbox-secret', scopes: ['api:read', 'api:write'] },
        { clientId: 'sandbox-reader', clientSecret: 'sandbox-secret', scopes: ['api:read'] },
      ],
    },
    {
      id: 'other-partner',
      name: 'Other Partner',
      clients: [
        { clientId: 'other-client', clientSecret: 'other-secret', scopes: ['api:read', 'api:write'] },
      ],
    },
  ],
  accounts: [
    {
      ...demoAccount(1001, 'demo', 'Demo GmbH', 'demo-partner'),
      invoices: [
        {
          externalId: 'erp-0001',
          invoiceType: 'SALES_INVOICE',
          invoiceStatus: 'OPEN',
          invoiceNumber: 'ERP-2026-0001',
          contactName: 'ERP Customer AG',
          totalGrossAmount: 1190,
          origin: 'ERP',
        },
      ],
    },
    demoAccount(1002, 'demo-2', 'Second Demo GmbH', 'demo-partner'),
    demoAccount(1003, 'not-yours', 'Other Partner Customer GmbH', 'other-partner'),
  ],
};

export function parseSeed(input: unknown, source: string): Seed {
  const result = SeedFile.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`invalid sandbox seed ${source}:\n  ${problems.join('\n  ')}`);
}

/** Adds the categories of a tree under `parentId`; children take their parent's type (spec). */
export function addCategories(
  state: SandboxState,
  account: AccountRecord,
  tree: SeedCategory[],
  parentId: number | null,
  parentType?: CategoryType,
): void {
  for (const node of tree) {
    const type = parentType ?? node.type;
    const id = state.nextId();
    account.categories.set(id, { id, name: node.name, type, parentId, enabledForPlannedTransactions: true });
    if (node.children) addCategories(state, account, node.children, id, type);
  }
}

/**
 * What every account has from birth: a default company, a base scenario and the two
 * uncategorized categories. Used by the seed and by create-account.
 */
export function addAccountDefaults(state: SandboxState, account: AccountRecord, companyName: string): number {
  const companyId = state.nextId();
  account.companies.set(companyId, { id: companyId, name: companyName });
  const scenarioId = state.nextId();
  account.scenarios.set(scenarioId, { id: scenarioId, name: 'Base case', isBaseCase: true });
  addCategories(state, account, [UNCATEGORIZED.income, UNCATEGORIZED.expense], null);
  return companyId;
}

export function buildState(seed: Seed): SandboxState {
  const state = createState(seed.firstId);
  for (const partner of seed.partners) {
    state.partners.set(partner.id, { id: partner.id, name: partner.name, ssoEnabled: partner.ssoEnabled });
    for (const client of partner.clients)
      state.clients.set(client.clientId, { ...client, partnerId: partner.id });
  }
  for (const seeded of seed.accounts) {
    if (seeded.id >= seed.firstId)
      throw new Error(`seed account id ${seeded.id} must be below firstId ${seed.firstId}`);
    if (!state.partners.has(seeded.partnerId))
      throw new Error(`seed account ${seeded.id} names unknown partner ${seeded.partnerId}`);
    const account = emptyAccount({
      id: seeded.id,
      externalId: seeded.externalId,
      companyName: seeded.companyName,
      status: seeded.status,
      partnerId: seeded.partnerId,
      subscriptionInformation: { ...DEFAULT_SUBSCRIPTION, ...seeded.subscription },
    });
    state.accounts.set(account.id, account);
    const companyId = addAccountDefaults(state, account, seeded.companyName);
    addCategories(state, account, seeded.categories ?? DEFAULT_CATEGORY_TREE, null);
    const users = seeded.users ?? [
      {
        externalId: `${seeded.externalId}-admin`,
        email: `admin@${seeded.externalId}.example`,
        firstName: 'Ada',
        lastName: 'Admin',
        role: 'ADMIN' as const,
        language: 'de-DE' as const,
        active: true,
      },
    ];
    for (const user of users) {
      const id = state.nextId();
      account.users.set(id, { id, companyId, ...user });
    }
    for (const bank of seeded.bankAccounts) {
      const id = state.nextId();
      account.bankAccounts.set(id, bankAccountRecord(id, companyId, bank, bank.provider));
      account.transactions.set(id, []);
      account.transactionsByExternalId.set(id, new Map());
    }
    for (const { origin, ...invoice } of seeded.invoices) insertInvoice(state, account, invoice, origin);
  }
  return state;
}
