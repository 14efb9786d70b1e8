import { stringify } from 'yaml';
import { placeholder } from '../config/placeholder.js';
import { KIND_FEED_KEYS, KINDS, type RecordKind } from '../kinds/registry.js';
import { FieldMapping } from '../sources/field-mapping.js';
import { routeCellsOf } from '../sources/formats/registry.js';
import { isRemote } from '../sources/locations/source-keys.js';
import type { FeedInference } from './feed-inference.js';
import type { Inferred } from './inferred.js';
import type { GivenDatabase, GivenLocation } from './location-flag.js';

/** What the feed file is written for, beside the inference. */
export interface FeedYamlOptions {
  name: string;
  /** The export's file name (the header comment names it). */
  exportName: string;
  /**
   * `source.path`: the glob of the export's series, relative to the feed file's folder (on a
   * remote location: the folder on the server or the key prefix).
   */
  sourcePath: string;
  /** `source.location` as `--location` gave it (its secrets only as the names of their variables). */
  location?: GivenLocation;
  /**
   * A database location instead (`--location postgres`): the source is it, the table or query and
   * the cursor (inference.source), with no path and no format.
   */
  database?: GivenDatabase;
  /** The customer account; a placeholder when not given. */
  accountId?: number;
}

/** A decision init left to the person: a placeholder (`required`) or a key left commented out. */
export interface OpenDecision {
  key: string;
  what: string;
  /** true: a placeholder the feed loader refuses; false: an optional key left out, commented. */
  required: boolean;
}

export interface FeedYaml {
  text: string;
  decisions: OpenDecision[];
}

/**
 * A value in YAML, on one line: strings double-quoted (a delimiter `;`, a `#`, a leading space or
 * a pattern `^;*Endsaldo` read back as written), collections in flow style.
 */
export function yamlValue(value: unknown): string {
  return stringify(value, {
    collectionStyle: 'flow',
    defaultStringType: 'QUOTE_DOUBLE',
    defaultKeyType: 'PLAIN',
    lineWidth: 0,
  }).trimEnd();
}

/** The sign markers the schema fills in when a feed names none (read from the schema, not repeated). */
const SIGN_DEFAULTS = (() => {
  const parsed = FieldMapping.parse({ column: 'amount', sign: { column: 'sign' } });
  return typeof parsed === 'object' && 'sign' in parsed ? parsed.sign : undefined;
})();

/**
 * A mapping as a person writes it: an amount's sign markers left out when they are the schema's
 * defaults (`{column: Betrag, sign: {column: S/H}}`), other mappings as they are.
 */
export function shortMapping(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('sign' in value) || SIGN_DEFAULTS === undefined)
    return value;
  const { sign } = value as { sign: { column: unknown; negative?: unknown; positive?: unknown } };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(sign.negative, SIGN_DEFAULTS.negative) || !same(sign.positive, SIGN_DEFAULTS.positive))
    return value;
  return { ...value, sign: { column: sign.column } };
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const choices = (candidates: readonly unknown[]): string => candidates.map(yamlValue).join(', ');

/** The comment above a setting: how sure, why, and for a guess what else it could be. */
function commentOf(setting: Inferred<unknown>): string {
  const reason = oneLine(setting.reason);
  if (setting.certainty === 'sure') return `# sure: ${reason}`;
  if (setting.certainty === 'guess') {
    const others = (setting.candidates ?? []).filter((c) => yamlValue(c) !== yamlValue(setting.value));
    return `# guess: ${reason} — check this${others.length ? `; other choices: ${choices(others)}` : ''}`;
  }
  return `# ask: ${reason}${setting.candidates?.length ? `; choose one of: ${choices(setting.candidates)}` : ''}`;
}

/** What an asked setting's placeholder says: the choices (why init could not pick: the comment above). */
function askedWhat(setting: Inferred<unknown>, subject: string): string {
  const candidates = setting.candidates ?? [];
  return candidates.length
    ? `${subject}, one of ${choices(candidates)}`
    : `${subject} (${oneLine(setting.reason)})`;
}

/** Collects the lines of the file and the decisions left open. */
class Writer {
  readonly lines: string[] = [];
  readonly decisions: OpenDecision[] = [];

  comment(indent: string, ...texts: string[]): void {
    for (const text of texts) this.lines.push(`${indent}# ${oneLine(text)}`);
  }

  /** A key whose value a person must give: a placeholder the feed loader refuses. */
  fillIn(indent: string, path: string, key: string, what: string): void {
    // Single-quoted: the choices inside keep their double quotes unescaped.
    this.lines.push(
      `${indent}${key}: ${stringify(placeholder(what), { defaultStringType: 'QUOTE_SINGLE', lineWidth: 0 }).trimEnd()}`,
    );
    this.decisions.push({ key: path, what, required: true });
  }

  /**
   * One inferred setting. An `ask` is never a silent pick: a placeholder when the key must be
   * given (or its default could be wrong), else the key commented out with its choices.
   */
  setting(indent: string, path: string, key: string, setting: Inferred<unknown>, optional = false): void {
    this.lines.push(`${indent}${commentOf(setting)}`);
    if (setting.certainty !== 'ask' && setting.value !== undefined) {
      this.lines.push(`${indent}${key}: ${yamlValue(setting.value)}`);
      return;
    }
    const what = askedWhat(setting, `the ${key}`);
    if (!optional) return this.fillIn(indent, path, key, what);
    this.lines.push(
      `${indent}# ${key}: (left out: to send it, write one of the choices above here and remove the "# ")`,
    );
    this.decisions.push({ key: path, what, required: false });
  }
}

/** The kind's required feed keys besides the mapping (transactions: the target bank account). */
function kindKeys(w: Writer, inference: FeedInference, kind: RecordKind): void {
  const format = inference.format.value;
  for (const { key, owners, spec } of KIND_FEED_KEYS) {
    if (!owners.includes(kind) || spec.required === undefined) continue;
    if (key === 'bankAccount') {
      w.lines.push('');
      w.comment(
        '',
        'The bank account these transactions go to, found by its externalId (created when absent).',
        'accountCurrency (default EUR), accountType (default CHECKING), iban and accountNumber may be added.',
      );
      if (format !== undefined && routeCellsOf(format) !== undefined)
        w.comment('', 'Or instead, one target per statement account: bankAccounts: auto (docs/feeds.md).');
      w.lines.push('bankAccount:');
      w.fillIn('  ', 'bankAccount.externalId', 'externalId', 'your ID of the bank account, e.g. giro-main');
      w.fillIn('  ', 'bankAccount.accountName', 'accountName', 'the bank account’s name, e.g. Girokonto');
      w.fillIn('  ', 'bankAccount.bankName', 'bankName', 'the bank’s name');
      continue;
    }
    w.lines.push('');
    w.fillIn('', key, key, spec.required);
  }
}

function mappingSection(w: Writer, inference: FeedInference, kind: RecordKind): void {
  const fields = KINDS[kind].fields;
  const { externalId } = inference.identity;
  const entries = Object.entries(inference.mapping);
  w.lines.push('');
  if (entries.length === 0 && externalId.value === null) {
    w.comment('', `mapping: none, the ${inference.format.value ?? ''} format's default mapping applies.`);
    return;
  }
  w.comment('', 'Service field: the column it is read from (docs/feeds.md, "mapping").');
  w.lines.push('mapping:');
  if (externalId.value === null || externalId.value === undefined) {
    w.lines.push(`  ${commentOf(externalId)}`);
    w.comment('  ', 'externalId: no column (to use one: externalId: <its name>)');
  } else w.setting('  ', 'mapping.externalId', 'externalId', externalId, true);
  for (const [field, setting] of entries)
    w.setting(
      '  ',
      `mapping.${field}`,
      field,
      { ...setting, value: shortMapping(setting.value) },
      fields[field]?.required !== true,
    );
}

/**
 * The commented feed YAML for an inference: every setting with how sure init is and why, what it
 * could not decide as placeholders (`<fill in: ...>`, refused by the feed loader) or commented-out
 * keys, and the kind's keys the person must give. Pure: the CLI writes the text.
 */
export function feedYaml(inference: FeedInference, options: FeedYamlOptions): FeedYaml {
  const w = new Writer();
  const kind = inference.kind.value ?? 'transactions';
  const { sample } = inference;
  w.comment(
    '',
    `Written by erp-bridge init from ${options.exportName} (${options.database ? (sample.complete ? 'every row' : 'its first rows') : sample.complete ? 'the whole file' : `${sample.bytes} bytes of it`}, ${sample.rows} rows).`,
    'Each setting says how it was found: "sure" (the values prove it), "guess" (likely: check it),',
    '"<fill in: ...>" (init cannot decide: erp-bridge check and sync refuse this file until you replace it).',
    `Then: erp-bridge check <this file> shows what every record would become (docs/check.md).`,
  );
  w.lines.push(`name: ${yamlValue(options.name)}`);
  if (KINDS[kind].scope !== 'partner') {
    w.comment('', 'The customer account every record goes to (X-Account-Id).');
    if (options.accountId === undefined)
      w.fillIn(
        '',
        'accountId',
        'accountId',
        'the customer account id, a number (or accountExternalId: its externalId)',
      );
    else w.lines.push(`accountId: ${options.accountId}`);
  }
  w.setting('', 'kind', 'kind', inference.kind);

  w.lines.push('', 'source:');
  if (options.database) databaseSource(w, inference, options.database);
  else fileSource(w, inference, options);

  mappingSection(w, inference, kind);
  kindKeys(w, inference, kind);
  if (inference.exclude) {
    w.lines.push('');
    w.setting('', 'exclude', 'exclude', inference.exclude, true);
  }
  if (inference.notes.length > 0) {
    w.lines.push('');
    w.comment('', 'Notes:', ...inference.notes);
  }
  return { text: `${w.lines.join('\n')}\n`, decisions: w.decisions };
}

/** A file source: the path of the export's series, the location when given, the format and its keys. */
function fileSource(w: Writer, inference: FeedInference, options: FeedYamlOptions): void {
  const remote = options.location !== undefined && isRemote(options.location.config);
  w.comment(
    '  ',
    `${remote ? 'On the location below' : "Relative to this file's folder"}: ${options.exportName} and the exports named like it (a "*" for its dates and numbers).`,
  );
  w.lines.push(`  path: ${yamlValue(options.sourcePath)}`);
  if (options.location) {
    w.comment('  ', 'Where the exports live (docs/locations.md); secrets are read from the variables named.');
    w.lines.push(`  location: ${yamlValue(options.location.given)}`);
  }
  w.setting('  ', 'source.format', 'format', inference.format);
  for (const [key, setting] of inference.source) w.setting('  ', `source.${key}`, key, setting);
}

/**
 * A database's source: the location as given (the URL only as its variable's name), the table or
 * query, and the cursor, left out (commented) when init found none. decimalSeparator and
 * dateFormat are fixed for a database and not written.
 */
function databaseSource(w: Writer, inference: FeedInference, database: GivenDatabase): void {
  w.comment(
    '  ',
    `The database (docs/databases.md); the connection URL is read from ${database.database.urlEnv}, never written here.`,
  );
  w.lines.push(`  location: ${yamlValue(database.given)}`);
  for (const [key, setting] of inference.source)
    w.setting('  ', `source.${key}`, key, setting, key === 'cursor');
}
