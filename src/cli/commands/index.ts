import type { Command } from 'commander';
import { registerCheckCommand } from './check.js';
import { registerEnqueueCommand } from './enqueue.js';
import { registerInitCommand } from './init.js';
import { registerReconcileCommand } from './reconcile.js';
import { registerReportCommand } from './report.js';
import { registerRunsCommand } from './runs.js';
import { registerSandboxCommand } from './sandbox.js';
import { registerSchedulerCommand } from './scheduler.js';
import { registerSyncCommand } from './sync.js';
import { registerWorkerCommand } from './worker.js';

/** Each command lives in its own file and registers itself here. */
export function registerCommands(program: Command): void {
  registerSandboxCommand(program);
  registerInitCommand(program);
  registerSyncCommand(program);
  registerCheckCommand(program);
  registerReconcileCommand(program);
  registerEnqueueCommand(program);
  registerWorkerCommand(program);
  registerSchedulerCommand(program);
  registerRunsCommand(program);
  registerReportCommand(program);
}
