/**
 * The benchmark's server process: starts the sandbox on a free loopback port and prints the same
 * one JSON line as `erp-bridge sandbox`. A separate script rather than the CLI so the figure does
 * not depend on every other command loading; the request path measured is the same.
 */
import { startSandbox } from '../../src/sandbox/index.js';

const sandbox = await startSandbox({ port: 0 });
const { url, authUrl, clientId, clientSecret } = sandbox;
process.stdout.write(`${JSON.stringify({ url, authUrl, clientId, clientSecret })}\n`);
const stop = () => void sandbox.close();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
