import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SandboxRuntime } from '../../../src/sandbox/runtime.js';
import type { AccountRecord, SandboxState } from '../../../src/sandbox/state.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import type { AdapterRun } from '../../support/runner-adapters.js';

/**
 * What two adapters' runs of one scenario must agree on, without what differs by nature: run ids,
 * times, the service's ids (each adapter has a sandbox of its own) and the folder its copy of the
 * exports lies in (`<exports>`).
 */
export interface ComparableRun {
  outcomes: ComparableOutcome[];
  summary: Omit<RunSummary, 'runId' | 'startedAt' | 'finishedAt' | 'durationMs' | 'firstErrors'> & {
    firstErrors: ComparableOutcome[];
  };
  /**
   * The run's life after its records: was the summary stored when the feed alerts judged it, and
   * the exports' folder afterwards (what after-care moved or deleted).
   */
  lifecycle: { summaryStoredAtAlert: boolean | undefined; exports: string[] };
  /** What the service was asked since the scenario began: requests by operation and answer. */
  service: { requests: Record<string, Record<string, number>> };
}

type ComparableOutcome = Omit<RecordOutcome, 'serviceId'> & { serviceId?: '<id>' };

/** Keys whose number is an id the service gave (a record's, a statement's target bank account's). */
const SERVICE_IDS = new Set(['serviceId', 'bankAccountId']);

const byPosition = (a: RecordOutcome, b: RecordOutcome) => a.file.localeCompare(b.file) || a.line - b.line;

/** Every occurrence of `dir` in the run's texts becomes `<exports>`, every service id `<id>`. */
function withoutDirAndIds(value: unknown, dir: string): ComparableRun {
  return JSON.parse(JSON.stringify(value).replaceAll(dir, '<exports>'), (key, v: unknown) =>
    SERVICE_IDS.has(key) && typeof v === 'number' ? '<id>' : v,
  ) as ComparableRun;
}

export function comparable(run: AdapterRun, dir: string, sandbox: SandboxRuntime): ComparableRun {
  const { runId: _, startedAt: _s, finishedAt: _f, durationMs: _d, firstErrors, ...summary } = run.summary;
  return withoutDirAndIds(
    {
      outcomes: run.outcomes,
      // The first errors in file and line order: chunks settle in any order on either adapter.
      summary: { ...summary, firstErrors: [...firstErrors].sort(byPosition) },
      lifecycle: { summaryStoredAtAlert: run.summaryStoredAtAlert, exports: exportsIn(dir) },
      service: { requests: sandbox.stats.snapshot().requests },
    },
    dir,
  );
}

/** The files of the exports' folder, relative to it, the feed file aside. */
const exportsIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => file !== 'feed.yaml')
    .sort();

const sorted = <T>(items: Iterable<T>): T[] =>
  [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/**
 * What the service holds, every account with its records, ids replaced by what they point at
 * (a category's parent by its name, a transaction's bank account by its externalId), records in
 * a stable order: two sandboxes that did the same writes in any order compare equal.
 */
export function serviceState(state: SandboxState) {
  return sorted([...state.accounts.values()].map(accountState));
}

function accountState(account: AccountRecord) {
  const name = <T extends { id: number }>(map: Map<number, T>, label: (t: T) => string) => {
    return (id: number | null) => {
      if (id === null) return null;
      const found = map.get(id);
      return found ? label(found) : `<unknown ${id}>`;
    };
  };
  const company = name(account.companies, (c) => c.name);
  const category = name(account.categories, (c) => `${c.name} (${c.type})`);
  const scenario = name(account.scenarios, (s) => s.name);
  const bank = name(account.bankAccounts, (b) => `${b.externalId ?? '-'} ${b.accountName}`);
  return {
    externalId: account.externalId,
    companyName: account.companyName,
    status: account.status,
    subscription: account.subscriptionInformation,
    companies: sorted([...account.companies.values()].map((c) => c.name)),
    users: sorted(
      [...account.users.values()].map(({ id: _, companyId, ...u }) => ({
        ...u,
        company: company(companyId),
      })),
    ),
    categories: sorted(
      [...account.categories.values()].map(({ id: _, parentId, ...c }) => ({
        ...c,
        parent: category(parentId),
      })),
    ),
    scenarios: sorted([...account.scenarios.values()].map(({ id: _, ...s }) => s)),
    plans: sorted(
      [...account.plans.values()].map(({ id: _, categoryId, scenarioId, ...p }) => ({
        ...p,
        category: category(categoryId),
        scenario: scenario(scenarioId),
      })),
    ),
    bankAccounts: sorted(
      [...account.bankAccounts.values()].map(({ id: _, companyId, _lastConvertedAt: _c, ...b }) => ({
        ...b,
        company: company(companyId),
      })),
    ),
    transactions: sorted(
      [...account.transactions.values()].flat().map(({ id: _, bankAccountId, categoryId, ...t }) => ({
        ...t,
        bankAccount: bank(bankAccountId),
        category: category(categoryId),
      })),
    ),
    invoices: sorted(
      [...account.invoices.values()].map(({ id: _, categoryId, ...i }) => ({
        ...i,
        category: category(categoryId),
      })),
    ),
  };
}
