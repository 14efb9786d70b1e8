import { expandPath } from '../contract/index.js';

/**
 * Query string of a request. Arrays become repeated parameters (`externalId=a&externalId=b`, the
 * spec's repeatable filter); undefined and null are left out.
 */
export function buildQuery(query: unknown): string {
  if (query === undefined || query === null) return '';
  if (typeof query !== 'object') throw new TypeError('query must be an object of parameters');
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
        throw new TypeError(`query parameter "${name}" must be a string, number, boolean or a list of them`);
      }
      search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** `{base_url}` + the operation's path with its parameters filled in + the query string. */
export function buildUrl(
  baseUrl: string,
  pathTemplate: string,
  params: Readonly<Record<string, string | number>> | undefined,
  query: unknown,
): URL {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  return new URL(`${base}${expandPath(pathTemplate, params ?? {})}${buildQuery(query)}`);
}
