/**
 * The benchmark's server process: starts the sandbox on a free loopback port and prints the same
 * one JSON line as `erp-bridge sandbox`. A separate script rather than the CLI so the figure does
 * not depend on every other command loading; the request path measured is the same.
 */
import { readFileSync } from 'node:fs';
import { parseSeed, startSandbox } from '../../src/sandbox/index.js';

// BENCH_SANDBOX_SEED: a JSON seed file (the fleet benchmark's many tenants) instead of the default.
const seedFile = process.env.BENCH_SANDBOX_SEED;
const seed = seedFile ? parseSeed(JSON.parse(readFileSync(seedFile, 'utf8')), seedFile) : undefined;
const sandbox = await startSandbox({ port: 0, ...(seed ? { seed } : {}) });
const { url, authUrl, clientId, clientSecret } = sandbox;
process.stdout.write(`${JSON.stringify({ url, authUrl, clientId, clientSecret })}\n`);
const stop = () => void sandbox.close();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
