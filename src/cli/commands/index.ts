import type { Command } from 'commander';
import { registerSandboxCommand } from './sandbox.js';
import { registerSyncCommand } from './sync.js';

/** Each command lives in its own file and registers itself here. */
export function registerCommands(program: Command): void {
  registerSandboxCommand(program);
  registerSyncCommand(program);
}
