import { parseDocument } from 'yaml';
import { ConfigError, describeIssues } from '../config/errors.js';
import { DatabaseLocation } from '../sources/database/database-settings.js';
import { DATABASE_TYPES } from '../sources/database/database-source.js';
import { LocationConfig } from '../sources/locations/location-config.js';

const FLAG = '--location';

/** What `--location` gave: the keys as written (the feed carries them so) and their validated form. */
export interface GivenLocation {
  given: Readonly<Record<string, unknown>>;
  config: LocationConfig;
}

/** `--location postgres` or `{type: mysql, urlEnv: X}`: a database, whose table `--table` names. */
export interface GivenDatabase {
  given: Readonly<Record<string, unknown>>;
  database: DatabaseLocation;
}

export type LocationFlag = ({ ok: true } & (GivenLocation | GivenDatabase)) | { ok: false; problem: string };

/** The variable a bare `--location postgres` (or `mysql`) reads the connection URL from. */
export const DEFAULT_URL_ENV = 'ERP_DB_URL';

/**
 * `init --location <yaml>`: where the export lives, as a YAML flow mapping of exactly the keys a
 * feed's `source.location` takes (`{type: sftp, host: ..., user: ..., privateKeyEnv: ..., hostKey:
 * ...}`), checked by that same schema (location-config.ts), so the flag and the feed it is written
 * into can never disagree. A bare word is a location type alone (`--location local`): the form a
 * location whose other settings come from flags of their own: a bare `postgres` or `mysql` is a
 * database whose URL is in ERP_DB_URL (DEFAULT_URL_ENV), its table or query named by `--table` or
 * `--query`; `{type: postgres, urlEnv: X}` names another variable.
 */
export function parseLocationFlag(text: string): LocationFlag {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    const first = doc.errors[0]?.message.split('\n')[0] ?? 'unreadable';
    return { ok: false, problem: `${FLAG}: not valid YAML (${first.replace(/:$/, '')})` };
  }
  const value: unknown = doc.toJS();
  const given =
    typeof value === 'string'
      ? DATABASE_TYPES.includes(value)
        ? { type: value, urlEnv: DEFAULT_URL_ENV }
        : { type: value }
      : value;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return {
      ok: false,
      problem: `${FLAG}: expected a YAML flow mapping of source.location's keys, e.g. {type: sftp, host: sftp.example.com, user: erp, privateKeyEnv: SFTP_KEY, hostKey: "SHA256:..."}, or a location type`,
    };
  const type = (given as { type?: unknown }).type;
  if (typeof type === 'string' && DATABASE_TYPES.includes(type)) {
    const database = DatabaseLocation.safeParse(given);
    if (!database.success)
      return {
        ok: false,
        problem: new ConfigError(
          `${FLAG}: not a database location (type and urlEnv: docs/locations.md#databases)`,
          describeIssues(database.error, FLAG),
        ).message,
      };
    return { ok: true, given: given as Record<string, unknown>, database: database.data };
  }
  const parsed = LocationConfig.safeParse(given);
  if (!parsed.success)
    return {
      ok: false,
      problem: new ConfigError(
        `${FLAG}: not a location (the keys of a feed's source.location: docs/locations.md)`,
        describeIssues(parsed.error, FLAG),
      ).message,
    };
  return { ok: true, given: given as Record<string, unknown>, config: parsed.data };
}
