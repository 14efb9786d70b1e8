import type { withSandbox } from '../../../support/sandbox.js';

export type SandboxFixture = Awaited<ReturnType<typeof withSandbox>>;

/**
 * One row of the spec's "Codes per operation" table and how to provoke it against a fresh sandbox.
 * `spec` repeats the table's Operation, Status and error cells verbatim; the coverage test checks
 * that every row of the spec has at least one ErrorRow.
 */
export interface ErrorRow {
  spec: { operation: string; status: number; error: string };
  /** The code we assert when the spec's cell is "(code not shown)": our documented assumption. */
  expectError?: string;
  /** A short description of the provocation, shown in the test name. */
  how: string;
  /** Sandbox options for this row (e.g. a seed with a partner without SSO); default seed otherwise. */
  options?: Parameters<typeof withSandbox>[0];
  provoke(sb: SandboxFixture): Promise<{ status: number; body: unknown; headers?: Headers }>;
}
