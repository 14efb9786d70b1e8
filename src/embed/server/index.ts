/**
 * The partner's server side of the embedded sign-in (package entry `erp-bridge/embed/server`):
 * mint one init token per page load, answer it uncached, and a minimal example parent page.
 * The browser side is `erp-bridge/embed` (src/embed/browser/embed.ts).
 */
export {
  type ExampleParent,
  type ExampleParentOptions,
  exampleParentHandler,
  startExampleParent,
} from './example-parent.js';
export { INIT_TOKEN_HEADERS, type InitTokenTarget, mintInitToken, sendInitToken } from './init-token.js';
