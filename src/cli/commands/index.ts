import type { Command } from 'commander';
import { registerCheckCommand } from './check.js';
import { registerConsoleCommand } from './console.js';
import { registerEnqueueCommand } from './enqueue.js';
import { registerInitCommand } from './init.js';
import { registerReconcileCommand } from './reconcile.js';
import { registerReportCommand } from './report.js';
import { registerRunsCommand } from './runs.js';
import { registerSandboxCommand } from './sandbox.js';
import { registerSchedulerCommand } from './scheduler.js';
import { registerSyncCommand } from './sync.js';
import { registerWorkerCommand } from './worker.js';

/**
 * Each command lives in its own file and registers itself here, in the order help lists them: by
 * name (commander's own sorting compares with localeCompare, whose first call starts ICU's collator:
 * about a tenth of a `--help`).
 */
export function registerCommands(program: Command): void {
  registerCheckCommand(program);
  registerConsoleCommand(program);
  registerEnqueueCommand(program);
  registerInitCommand(program);
  registerReconcileCommand(program);
  registerReportCommand(program);
  registerRunsCommand(program);
  registerSandboxCommand(program);
  registerSchedulerCommand(program);
  registerSyncCommand(program);
  registerWorkerCommand(program);
}
