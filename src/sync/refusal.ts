import { ApiError } from '../client/index.js';
import type { OutcomeFields } from './build-outcome.js';
import { describeCauses } from './isolate.js';
import { stopFor } from './stop.js';

/** How a strategy treats one service code on a single-record write (overrides the defaults). */
export interface Refusal {
  outcome: 'rejected' | 'failed';
  advice: string;
}

/**
 * What a refused single-record write (PATCH, create) means for that record: 400, 404 and 409 are
 * the record's problem (rejected, with the service's causes), `special` codes take the outcome and
 * advice given. Undefined when the error concerns more than the record (run stops, 429, network,
 * ambiguous answers): the caller handles or rethrows it.
 */
export function refusalOf(
  error: unknown,
  special: Readonly<Record<string, Refusal>> = {},
): OutcomeFields | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'service' || error.ambiguous) return undefined;
  const code = error.serviceCode ?? error.code;
  const chosen = special[code];
  if (!chosen && (stopFor(error) || ![400, 404, 409].includes(error.status ?? 0))) return undefined;
  const detail = describeCauses(error.causes);
  const message = [error.message, detail && `causes: ${detail}`, chosen?.advice].filter(Boolean).join(' — ');
  return { outcome: chosen?.outcome ?? 'rejected', code, message };
}
