import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modulesNamed, repoRoot, runNode, watchModules } from '../../support/cli-run.js';

/**
 * Each command loads only what it uses (issue 30: a cron over many small exports pays the start-up
 * of every call). What a call loads is watched, never timed: `npm run bench:startup` measures it.
 */
async function packagesLoaded(args: readonly string[]) {
  // Every bare specifier: a package (node's own modules and files are not watched).
  const watch = watchModules('^(?!node:|file:|data:)[@a-z]');
  const ran = await runNode(['--import', 'tsx', ...watch.args, 'src/cli/main.ts', ...args], watch.env);
  return { ...ran, loaded: new Set(modulesNamed(ran.stderr)) };
}

const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

describe('start-up loads only what the command uses', () => {
  it.each([['--version'], ['-V']])('%s prints the version and loads no package', async (flag) => {
    const ran = await packagesLoaded([flag]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(`${version}\n`);
    expect([...ran.loaded]).toEqual([]);
  });

  it('--version beside a command is still answered (by the parser)', async () => {
    const ran = await packagesLoaded(['runs', '--version']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(`${version}\n`);
  });

  it.each([
    [['--help']],
    [['sync', '--help']],
    [['init', '--help']],
    [['worker', '--help']],
    [['reconcile', '--help']],
  ])('%j loads the parser alone and lists what it should', async (args) => {
    const ran = await packagesLoaded(args);
    expect(ran.code).toBe(0);
    expect([...ran.loaded]).toEqual(['commander']);
    expect(ran.stdout).toMatch(/^Usage: erp-bridge/);
  });

  it('--help names every command, by name', async () => {
    const ran = await packagesLoaded(['--help']);
    const listed = [...ran.stdout.matchAll(/^ {2}([a-z]+) /gm)]
      .map((m) => m[1] as string)
      .filter((c) => c !== 'help');
    const commands = [
      'check',
      'console',
      'enqueue',
      'init',
      'reconcile',
      'report',
      'runs',
      'sandbox',
      'scheduler',
      'sync',
      'worker',
    ];
    expect(listed).toEqual(commands);
  });

  it('init --help lists the kinds as choices without loading them', async () => {
    const ran = await packagesLoaded(['init', '--help']);
    expect(ran.stdout.replace(/\s+/g, ' ')).toContain(
      '(choices: "transactions", "invoices", "plans", "bank-accounts", "users", "accounts", "categories"',
    );
  });
});
