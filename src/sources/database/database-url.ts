import { DatabaseError } from './database-errors.js';
import type { DatabaseLocation } from './database-settings.js';

/** A database's connection URL, and how messages name it. */
export interface DatabaseUrl {
  /** The URL as the variable holds it (with its password): handed to the driver and nowhere else. */
  readonly url: string;
  /** `postgres://host:5432/erp`: scheme, host, port and database, never the user or password. */
  readonly label: string;
}

const SCHEMES: Record<DatabaseLocation['type'], { schemes: readonly string[]; port: number }> = {
  postgres: { schemes: ['postgres:', 'postgresql:'], port: 5432 },
  mysql: { schemes: ['mysql:', 'mariadb:'], port: 3306 },
};

/**
 * The URL from the variable the feed names. Unset or empty: URL_MISSING naming the variable. A
 * text that is no URL of the location's type is refused without repeating it (it may hold the
 * password).
 */
export function databaseUrl(location: DatabaseLocation, env: NodeJS.ProcessEnv): DatabaseUrl {
  const url = env[location.urlEnv];
  if (url === undefined || url.trim() === '') {
    throw new DatabaseError(
      'URL_MISSING',
      `${location.type} location: the environment variable ${location.urlEnv} is not set (or empty); it must hold the connection URL`,
    );
  }
  const { schemes, port } = SCHEMES[location.type];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUrl(location, schemes);
  }
  if (!schemes.includes(parsed.protocol) || parsed.hostname === '') throw badUrl(location, schemes);
  if (location.type === 'mysql') refuseReaderOptions(location, parsed);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  return { url, label: `${location.type}://${parsed.hostname}:${parsed.port || port}/${database}` };
}

function badUrl(location: DatabaseLocation, schemes: readonly string[]): DatabaseError {
  return new DatabaseError(
    'BAD_URL',
    `${location.type} location: the environment variable ${location.urlEnv} does not hold a URL of the form ${schemes[0]}//user:password@host:port/database (its text is not repeated here: it may hold a password)`,
  );
}

/**
 * mysql2 takes every parameter of its URL as a connection option, over the reader's own: a
 * `?dateStrings=false` or `?decimalNumbers=true` would turn exact text into Dates and floats. Only
 * TLS is the URL's to say (`ssl`, a JSON object, as mysql2 documents it).
 */
const MYSQL_URL_PARAMETERS: ReadonlySet<string> = new Set(['ssl']);

function refuseReaderOptions(location: DatabaseLocation, url: URL): void {
  const others = [...url.searchParams.keys()].filter((name) => !MYSQL_URL_PARAMETERS.has(name));
  if (others.length > 0)
    throw new DatabaseError(
      'BAD_URL',
      `${location.type} location: the URL in ${location.urlEnv} has the parameter${others.length > 1 ? 's' : ''} ${others.join(', ')}; only ssl is taken (the others would change how values are read)`,
    );
}
