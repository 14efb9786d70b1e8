/** Public surface of the sandbox: what the CLI and tests may use. */
export type { EmbeddedApp, EmbeddedAppOptions } from './embedded-app.js';
export {
  type ConfigurableFaults,
  createFaultInjector,
  FaultConfig,
  type FaultConfigInput,
  type FaultDecision,
  type FaultInjector,
  type FaultRequest,
  isConfigurableFaults,
  NO_FAULTS,
  parseFaultConfig,
} from './faults.js';
export type { SandboxRequestEvent } from './runtime.js';
export { DEFAULT_SEED, parseSeed, type Seed, SeedFile } from './seed.js';
export { type SandboxHandle, type SandboxOptions, startSandbox } from './server.js';
export { DEFAULT_SSO, type SsoOptions } from './sso.js';
export type { StatsSnapshot } from './stats.js';
