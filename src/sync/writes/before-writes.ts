import { OPERATIONS } from '../../contract/index.js';
import type { SyncClient } from '../ports.js';

/**
 * The client's helpers that write: those named after an operation that needs the api:write
 * scope (the helpers carry their operation's name; the others only read: pages, lookups).
 */
export function isWriteHelper(name: string | symbol): boolean {
  if (typeof name !== 'string' || !Object.hasOwn(OPERATIONS, name)) return false;
  const operation: { scope: string | null } = OPERATIONS[name as keyof typeof OPERATIONS];
  return operation.scope === 'api:write';
}

/**
 * `client` with `before` awaited ahead of every write helper's request (reads pass straight
 * through): what a run does just before it writes, whichever strategy writes and however.
 */
export function beforeWrites(client: SyncClient, before: () => Promise<void>): SyncClient {
  return new Proxy(client, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      // Called on the client itself: its private members are not the proxy's.
      if (!isWriteHelper(name)) return value.bind(target);
      return async (...args: unknown[]): Promise<unknown> => {
        await before();
        return Reflect.apply(value, target, args);
      };
    },
  });
}
