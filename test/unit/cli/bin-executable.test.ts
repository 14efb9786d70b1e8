import { execSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli-run.js';

/**
 * The npm bin (`erp-bridge` → dist/src/cli/main.js) must be executable as the build leaves it: tsc
 * writes it 0644, and an npx cache of an earlier clone at the same path then ran the new clone's
 * file as it was ("sh: 1: erp-bridge: Permission denied", exit 127). The build's steps after tsc
 * and the CLI's bundle (which rewrites dist/src/cli/main.js) make every `bin` executable.
 */
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  scripts: { build: string };
};
const executable = (path: string) => (statSync(path).mode & 0o111) === 0o111;

describe('the npm bin is executable after the build', () => {
  it("the build's steps after compiling make each bin of package.json executable (run on 0644 copies)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-bin-'));
    copyFileSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
    for (const bin of Object.values(pkg.bin)) {
      mkdirSync(join(dir, dirname(bin)), { recursive: true });
      writeFileSync(join(dir, bin), '#!/usr/bin/env node\n');
      chmodSync(join(dir, bin), 0o644);
    }
    // The compile steps (tsc, the CLI's bundle) write the bins; what follows them must leave each executable.
    const steps = pkg.scripts.build.split(' && ');
    const compiles = (step: string) => step.startsWith('tsc ') || step === 'npm run bundle';
    const afterCompiling = steps.slice(steps.findLastIndex(compiles) + 1);
    expect(afterCompiling.length).toBeGreaterThan(0);
    for (const step of afterCompiling) execSync(step, { cwd: dir, stdio: 'pipe' });
    for (const bin of Object.values(pkg.bin)) expect(executable(join(dir, bin)), bin).toBe(true);
  });

  const built = Object.values(pkg.bin).map((bin) => join(repoRoot, bin));
  it.skipIf(!built.every((path) => existsSync(path)))(
    'the build in this checkout (npm ci builds it in CI) left each bin executable',
    () => {
      for (const path of built) expect(executable(path), path).toBe(true);
    },
  );
});
