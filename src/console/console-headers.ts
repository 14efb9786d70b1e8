/**
 * On every console response: nothing cached (tenant names and amounts stay out of the browser's
 * cache), nothing loaded but the console's own stylesheet (and data: images), never framed, types
 * never sniffed, no Referer sent to another site.
 */
export const CONSOLE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** Read-only: GET, and HEAD (fastify answers it from the GET route). */
export const CONSOLE_METHODS = new Set(['GET', 'HEAD']);
