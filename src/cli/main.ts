#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crashReport } from './crash.js';
import { EXIT } from './exit-codes.js';
import { boundHeapGrowth } from './heap-growth.js';
import { buildProgram } from './program.js';

/** The nearest package.json above this file: works from dist/src/cli (built) and src/cli (tsx). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate))
      return (JSON.parse(readFileSync(candidate, 'utf8')) as { version: string }).version;
    const parent = dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

// `erp-bridge runs | head`: once the reader has gone, the rest of a list has nowhere to go. End
// quietly, as other command-line tools do, instead of dying on an unhandled EPIPE error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.OK);
  throw error;
});

boundHeapGrowth();

buildProgram(packageVersion())
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const { line, code } = crashReport(error);
    if (line) process.stderr.write(line);
    process.exitCode = code;
  });
