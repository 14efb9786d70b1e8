import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import type { Front } from './sync-harness.js';

type Item = Record<string, unknown>;

/** The bulk creates a strict front judges, and where each one's body carries its items. */
const BULK_ITEMS: Record<string, (body: unknown) => Item[]> = {
  '/v2/bank-account-transactions/bulk': (body) => (body as { transactions: Item[] }).transactions,
  '/v2/invoices/bulk': (body) => (body as { invoices: Item[] }).invoices,
  '/v2/plans/bulk': (body) => body as Item[],
};

export interface StrictBulkFront extends Front {
  /** Bulk requests the front refused as a whole (400), and their sizes. */
  refusedSizes: number[];
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A proxy in front of the sandbox that plays a service validating bulk creates as a whole: when
 * `refuses` names an item, the whole request is answered 400 INVALID_REQUEST and nothing is written
 * — with `causes` naming the items by index, or (withCauses false) with no causes at all, so the
 * client can only bisect. With `conflicts`, a bulk request it matches is answered 409 CONFLICT
 * first (a failure that is neither a refusal to narrow down nor ambiguous). Every other request is
 * passed on to the sandbox unchanged.
 */
export function strictBulkFront(
  refuses: (item: Item) => boolean,
  withCauses: boolean,
  conflicts: (items: Item[]) => boolean = () => false,
): (sandbox: SandboxHandle) => Promise<StrictBulkFront> {
  return async (sandbox) => {
    const refusedSizes: number[] = [];
    const server = createServer((req, res) => {
      void (async () => {
        const body = await bodyOf(req);
        const path = new URL(req.url ?? '/', 'http://front').pathname;
        const itemsOf = req.method === 'POST' ? BULK_ITEMS[path] : undefined;
        if (itemsOf) {
          const items = itemsOf(JSON.parse(body.toString('utf8')));
          if (conflicts(items)) {
            res.writeHead(409, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({ timestamp: Date.now(), error: 'CONFLICT', message: 'busy (test front)' }),
            );
            return;
          }
          const bad = items.flatMap((item, index) => (refuses(item) ? [index] : []));
          if (bad.length > 0) {
            refusedSizes.push(items.length);
            const causes = bad.map((index) => ({ index, message: 'refused by the strict front' }));
            res.writeHead(400, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                timestamp: Date.now(),
                error: 'INVALID_REQUEST',
                message: `${bad.length} invalid item(s); nothing was stored`,
                ...(withCauses ? { causes } : {}),
              }),
            );
            return;
          }
        }
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'x-account-id', 'content-type', 'accept']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const answer = await fetch(`${sandbox.authUrl}${req.url}`, {
          method: req.method,
          headers,
          body: body.length > 0 ? body : undefined,
        });
        const passOn: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (name === 'content-type' || name === 'retry-after') passOn[name] = value;
        });
        res.writeHead(answer.status, passOn);
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/v2`,
      refusedSizes,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  };
}
