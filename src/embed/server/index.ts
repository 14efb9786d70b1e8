/**
 * The partner's server side of the embedded sign-in (package entry `erp-bridge/embed/server`):
 * mint one init token per page load, answer it uncached, and a minimal example parent page. It also
 * carries the client that mints (the package's only other entry is the CLI): a partner's server
 * builds one with its credentials. The browser side is `erp-bridge/embed` (src/embed/browser/embed.ts).
 */
export { PartnerClient, type PartnerClientSettings } from '../../client/index.js';
export {
  type ExampleParent,
  type ExampleParentOptions,
  exampleParentHandler,
  startExampleParent,
} from './example-parent.js';
export { INIT_TOKEN_HEADERS, type InitTokenTarget, mintInitToken, sendInitToken } from './init-token.js';
