import { parseDocument } from 'yaml';
import { ConfigError, describeIssues } from '../config/errors.js';
import { LocationConfig } from '../sources/locations/location-config.js';

const FLAG = '--location';

/** What `--location` gave: the keys as written (the feed carries them so) and their validated form. */
export interface GivenLocation {
  given: Readonly<Record<string, unknown>>;
  config: LocationConfig;
}

export type LocationFlag = ({ ok: true } & GivenLocation) | { ok: false; problem: string };

/**
 * `init --location <yaml>`: where the export lives, as a YAML flow mapping of exactly the keys a
 * feed's `source.location` takes (`{type: sftp, host: ..., user: ..., privateKeyEnv: ..., hostKey:
 * ...}`), checked by that same schema (location-config.ts), so the flag and the feed it is written
 * into can never disagree. A bare word is a location type alone (`--location local`): the form a
 * location whose other settings come from flags of their own (a database's `--table`) will take.
 */
export function parseLocationFlag(text: string): LocationFlag {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    const first = doc.errors[0]?.message.split('\n')[0] ?? 'unreadable';
    return { ok: false, problem: `${FLAG}: not valid YAML (${first.replace(/:$/, '')})` };
  }
  const value: unknown = doc.toJS();
  const given = typeof value === 'string' ? { type: value } : value;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return {
      ok: false,
      problem: `${FLAG}: expected a YAML flow mapping of source.location's keys, e.g. {type: sftp, host: sftp.example.com, user: erp, privateKeyEnv: SFTP_KEY, hostKey: "SHA256:..."}, or a location type`,
    };
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
