import { ApiError } from '../client/index.js';
import type { Cause } from '../contract/index.js';
import { stopFor } from './stop.js';

export interface IsolatedRejection<T> {
  item: T;
  code: string;
  message: string;
}

export interface IsolationResult<T, R> {
  /** Each accepted sub-request with the items it carried, in the order sent. */
  sent: { items: T[]; response: R }[];
  rejected: IsolatedRejection<T>[];
}

/**
 * What sendIsolating got done, kept up to date while it works: when it throws, the caller still
 * knows which items were accepted or rejected, which batch the failing request carried (`failed`:
 * after an ambiguous failure, exactly the items whose fate is unknown) and which were never sent.
 */
export interface IsolationProgress<T, R> extends IsolationResult<T, R> {
  failed: T[];
  unsent: T[];
}

export function isolationProgress<T, R>(): IsolationProgress<T, R> {
  return { sent: [], rejected: [], failed: [], unsent: [] };
}

export function describeCauses(causes: readonly Cause[]): string {
  return causes.map((c) => [c.field, c.message].filter(Boolean).join(': ')).join('; ');
}

/** Causes that name an item of the batch by its index, grouped by that index. */
function causesByIndex(causes: readonly Cause[], size: number): Map<number, Cause[]> {
  const named = new Map<number, Cause[]>();
  for (const cause of causes) {
    if (cause.index !== undefined && cause.index >= 0 && cause.index < size) {
      named.set(cause.index, [...(named.get(cause.index) ?? []), cause]);
    }
  }
  return named;
}

/**
 * A refusal of the whole request for which nothing was written, so splitting and resending is safe:
 * any 400, and a 404 whose causes name items by index (an all-or-nothing bulk endpoint that checks
 * references item by item, like the plans bulk with CATEGORY_NOT_FOUND or SCENARIO_NOT_FOUND). A 404
 * without item indexes (an unknown bank account) concerns the whole request and is not narrowed.
 */
function wholeRequestRefusal(
  error: unknown,
  size: number,
): { error: ApiError; named: Map<number, Cause[]> } | undefined {
  if (!(error instanceof ApiError) || error.ambiguous || stopFor(error) !== undefined) return undefined;
  if (error.status !== 400 && error.status !== 404) return undefined;
  const named = causesByIndex(error.causes, size);
  if (error.status === 404 && named.size === 0) return undefined;
  return { error, named };
}

/**
 * Sends `items` in one request; when the service refuses the whole request (see
 * wholeRequestRefusal), the valid items still get through: items the error's `causes` name by index
 * are rejected with the error's code and the rest resent, and without usable causes the batch is
 * bisected until each invalid item stands alone. Any other failure is thrown; `progress` (optional)
 * then tells what had been done.
 */
export async function sendIsolating<T, R>(
  items: T[],
  send: (batch: T[]) => Promise<R>,
  progress: IsolationProgress<T, R> = isolationProgress(),
): Promise<IsolationResult<T, R>> {
  const queue: T[][] = [items];
  while (queue.length > 0) {
    const batch = queue.shift() as T[];
    if (batch.length === 0) continue;
    try {
      progress.sent.push({ items: batch, response: await send(batch) });
    } catch (caught) {
      const refusal = wholeRequestRefusal(caught, batch.length);
      if (!refusal) {
        progress.failed = batch;
        progress.unsent = queue.flat();
        throw caught;
      }
      const { error, named } = refusal;
      if (named.size > 0) {
        for (const [index, causes] of named) {
          progress.rejected.push({
            item: batch[index] as T,
            code: error.code,
            message: describeCauses(causes) || error.message,
          });
        }
        queue.unshift(batch.filter((_, i) => !named.has(i)));
      } else if (batch.length === 1) {
        const detail = describeCauses(error.causes);
        progress.rejected.push({
          item: batch[0] as T,
          code: error.code,
          message: detail ? `${error.message} (${detail})` : error.message,
        });
      } else {
        const middle = Math.ceil(batch.length / 2);
        queue.unshift(batch.slice(0, middle), batch.slice(middle));
      }
    }
  }
  return { sent: progress.sent, rejected: progress.rejected };
}
