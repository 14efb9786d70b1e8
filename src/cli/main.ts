#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { enableCompileCache } from './compile-cache.js';
import { EXIT } from './exit-codes.js';
import { boundHeapGrowth } from './heap-growth.js';

/** The package's version: from dist/src/cli (built, bundled) and src/cli (tsx) alike. */
function packageVersion(): string {
  const root = packageRoot(import.meta.url);
  if (!root) return '0.0.0';
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

// `erp-bridge runs | head`: once the reader has gone, the rest of a list has nowhere to go. End
// quietly, as other command-line tools do, instead of dying on an unhandled EPIPE error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.OK);
  throw error;
});

boundHeapGrowth();
// Before the command's chunks load, so they are read compiled from the cache where Node has one.
enableCompileCache();

const version = packageVersion();
// `erp-bridge --version` alone is answered before the command-line parser loads: scripts and
// health checks call it often, and it needs nothing but the package's version (commander prints the
// same line for it anywhere else on the command line).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V'))
  process.stdout.write(`${version}\n`);
else
  import('./program.js')
    .then(async ({ buildProgram, parserExit }) => {
      try {
        await buildProgram(version).parseAsync(process.argv);
      } catch (error) {
        const exit = parserExit(error);
        if (exit === undefined) throw error;
        process.exitCode = exit;
      }
    })
    .catch(async (error: unknown) => {
      // Loaded on a crash only: what it imports to read an error stays out of every start-up
      // (help and usage errors end above).
      const { crashReport } = await import('./crash.js');
      const { line, code } = crashReport(error);
      process.stderr.write(line);
      process.exitCode = code;
    });
