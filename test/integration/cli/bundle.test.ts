import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cliSandboxPerFile, modulesNamed, repoRoot, runNode, watchModules } from '../../support/cli-run.js';

/**
 * The built CLI is one bundle (dist/src/cli/main.js and its chunks; `npm run bundle`): every other
 * test runs the sources, so these run the bundle as users do, a feed of each format and the
 * sandbox's pages, whose browser modules the bundle finds from the package's root (issue 30).
 */
const main = join(repoRoot, 'dist/src/cli/main.js');
const built = existsSync(main);
const { work, env } = cliSandboxPerFile('bundle');

async function runBuilt(args: readonly string[], childEnv: Record<string, string>) {
  // Relative specifiers: what the bundle imports of its own files.
  const watch = watchModules('^[.]');
  const ran = await runNode([...watch.args, main, ...args], { ...watch.env, ...childEnv });
  return { ...ran, own: modulesNamed(ran.stderr) };
}

/** main.js and every chunk it imports, statically or on use (a chunk of an older build is not one). */
function bundleFiles(): string[] {
  const files = new Set([main]);
  for (const file of files)
    for (const [, path] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*"([.][^"]+[.]js)"/g))
      files.add(join(dirname(file), path as string));
  return [...files];
}

describe.skipIf(!built)('the built CLI (a bundle)', () => {
  it('syncs a feed of each format into a service, loading only its own chunks', async () => {
    const feeds = ['sparkasse', 'camt', 'mt940', 'datev', 'xlsx', 'invoices'].map(
      (name) => `config/feeds/demo/${name}.yaml`,
    );
    const ran = await runBuilt(
      ['sync', ...feeds, '--report-dir', join(work, 'reports'), '--no-progress'],
      env(),
    );
    expect(ran.stderr).not.toMatch(/unexpected error/);
    expect(ran.code).toBe(0);
    expect(ran.stdout.match(/^demo-[\w-]+: completed: /gm)).toHaveLength(feeds.length);
    // Bundled: chunks beside each other, never a module of the TypeScript build's tree.
    expect(ran.own.length).toBeGreaterThan(0);
    for (const specifier of ran.own) expect(specifier).toMatch(/^[.]\/(chunks\/)?[\w-]+[.]js$/);
  });

  it("serves the sandbox's pages with the built browser modules", async () => {
    const child = spawn(process.execPath, [main, 'sandbox', '--port', '0'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [first] = await createInterface({ input: child.stdout })
        [Symbol.asyncIterator]()
        .next()
        .then((r) => [r.value as string]);
      const { demoUrl } = JSON.parse(first ?? '{}') as { demoUrl: string };
      const served = await fetch(new URL('embed.js', demoUrl));
      expect(served.status).toBe(200);
      expect(await served.text()).toBe(
        readFileSync(join(repoRoot, 'dist/src/embed/browser/embed.js'), 'utf8'),
      );
    } finally {
      child.kill('SIGTERM');
    }
  });

  it("holds none of zod's locales (.build/zod.js names the values the sources use)", () => {
    // esbuild names each bundled module in a comment: zod's English messages stay, no other locale.
    const bundled = bundleFiles().flatMap((file) => [
      ...readFileSync(file, 'utf8').matchAll(/zod\/v4\/locales\/[\w-]+/g),
    ]);
    expect(bundled.map(([path]) => path)).toEqual(['zod/v4/locales/en']);
  });
});
