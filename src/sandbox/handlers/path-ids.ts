import { invalidRequest, notFound } from '../fault.js';

/**
 * A path id as the spec types it (`integer <int64>`): anything that is not a decimal integer within
 * the safe range (`12abc`, `1.0`, `1e3`) is a malformed request (400), never "not found", so a client
 * that builds paths from the wrong field (an externalId, `undefined`) learns it from the status. A
 * negative id is well-formed and merely unknown (404). The one rule for every sandbox handler.
 */
export function pathId(params: Readonly<Record<string, string>>, name: string): number {
  const text = params[name] ?? '';
  const id = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    throw invalidRequest(`Path parameter ${name} must be an integer id, got "${text}"`, [
      { field: name, message: 'expected an integer within the safe int64 range' },
    ]);
  }
  return id;
}

/** The record a path id names in one of the account's maps, or the resource's 404 code. */
export function recordAt<T>(
  records: ReadonlyMap<number, T>,
  params: Readonly<Record<string, string>>,
  name: string,
  code: string,
  what: string,
): T {
  const id = pathId(params, name);
  const record = records.get(id);
  if (!record)
    throw notFound(code, `No ${what} with id ${id} in this account; list them to find the right id`);
  return record;
}
