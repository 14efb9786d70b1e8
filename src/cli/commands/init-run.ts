import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { FEED_NAME } from '../../config/feed.js';
import { feedNameFor, remoteSourcePath, sourcePathFor } from '../../init/export-name.js';
import { inferFeed } from '../../init/feed-inference.js';
import type { FeedInference } from '../../init/feed-shape.js';
import { type FeedYaml, feedYaml } from '../../init/feed-yaml.js';
import { inferredRows, inferredText } from '../../init/inference-lines.js';
import { type GivenDatabase, type GivenLocation, parseLocationFlag } from '../../init/location-flag.js';
import type { RecordKind } from '../../kinds/registry.js';
import { isRemote } from '../../sources/locations/source-keys.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { databaseSourceOf, inferFromDatabase } from './init-database.js';
import { withExportSample } from './init-export.js';

export interface InitFlags {
  kind?: RecordKind;
  name?: string;
  accountId?: number;
  out?: string;
  /** Where the export lives: a YAML flow mapping of source.location's keys (location-flag.ts). */
  location?: string;
  /** With a database location: the table to read (or `query`, a SELECT): exactly one of them. */
  table?: string;
  query?: string;
  force: boolean;
}

/**
 * The refusal of `init`, nothing written: the settings or the export are wrong (exit 2), or the
 * export's location refused (its own exit code).
 */
function refuse(message: string, exitCode: ExitCode = EXIT.INVALID_CONFIG): ExitCode {
  process.stderr.write(`erp-bridge init: ${message}\n`);
  return exitCode;
}

/**
 * Infers a feed from one export, writes it (never over an existing file without --force) and
 * prints what was inferred, how sure, what is left to decide and the command to run next.
 */
export async function init(exportPath: string | undefined, flags: InitFlags): Promise<ExitCode> {
  let where: GivenLocation | GivenDatabase | undefined;
  if (flags.location !== undefined) {
    const given = parseLocationFlag(flags.location);
    if (!given.ok) return refuse(given.problem);
    where = given;
  }
  if (where !== undefined && 'database' in where) {
    if (exportPath !== undefined)
      return refuse(
        `${exportPath}: a database location reads --table or --query, not an export file (leave the file out)`,
      );
    if ((flags.table === undefined) === (flags.query === undefined))
      return refuse(
        flags.table === undefined
          ? '--table: give the table to read (--table erp.bank_bookings) or --query (a SELECT)'
          : '--table and --query: give one of them, not both',
      );
    return initDatabase(where, flags);
  }
  for (const flag of ['table', 'query'] as const)
    if (flags[flag] !== undefined)
      return refuse(`--${flag}: only with a database location (--location postgres or --location mysql)`);
  if (exportPath === undefined)
    return refuse('<export>: give the export file (or --location postgres --table T for a database)');

  const name = flags.name ?? feedNameFor(exportPath);
  if (!FEED_NAME.test(name))
    return refuse(
      `--name "${name}": expected letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  const out = flags.out ?? join('config', 'feeds', `${name}.yaml`);
  const remote = where !== undefined && isRemote(where.config);
  const read = await withExportSample(exportPath, where, async (sample) => ({
    // A remote export as reports name it: the location's label before the path.
    from: remote ? sample.file.name : exportPath,
    inferred: await inferFeed(sample, flags.kind ? { kind: flags.kind } : {}),
  }));
  if (!read.ok) return refuse(read.message, read.exitCode);
  const { from, inferred } = read.value;
  if (!inferred.ok) return refuse(`${from}: not an export init can read: ${inferred.problem}`);
  const { inference } = inferred;

  const written = feedYaml(inference, {
    name,
    exportName: basename(exportPath),
    sourcePath: remote ? remoteSourcePath(exportPath) : sourcePathFor(resolve(exportPath), resolve(out)),
    ...(where === undefined ? {} : { location: where }),
    ...(flags.accountId === undefined ? {} : { accountId: flags.accountId }),
  });
  return writeFeed(out, from, inference, written, flags.force);
}

/** `init --location postgres --table T`: the feed of a table (or query), named after the table. */
async function initDatabase(where: GivenDatabase, flags: InitFlags): Promise<ExitCode> {
  const checked = databaseSourceOf(where, flags);
  if (!checked.ok) return refuse(checked.message);
  const name = flags.name ?? databaseFeedName(flags.table);
  if (!FEED_NAME.test(name))
    return refuse(
      `--name "${name}": expected letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  const out = flags.out ?? join('config', 'feeds', `${name}.yaml`);
  const read = await inferFromDatabase(checked.source, flags.kind);
  if (!read.ok) return refuse(read.message, read.exitCode);
  const { from, inference } = read.value;
  const written = feedYaml(inference, {
    name,
    exportName: flags.table === undefined ? 'the query' : `table ${flags.table}`,
    sourcePath: '',
    database: where,
    ...(flags.accountId === undefined ? {} : { accountId: flags.accountId }),
  });
  return writeFeed(out, from, inference, written, flags.force);
}

/** `erp.bank_bookings` -> `bank_bookings`; a query's feed is `query` unless --name says otherwise. */
function databaseFeedName(table: string | undefined): string {
  return table === undefined ? 'query' : (table.split('.').pop() ?? table);
}

/** Writes the feed (never over an existing file without --force) and prints what was inferred. */
async function writeFeed(
  out: string,
  from: string,
  inference: FeedInference,
  { text, decisions }: FeedYaml,
  force: boolean,
): Promise<ExitCode> {
  try {
    await mkdir(dirname(resolve(out)), { recursive: true });
    // `wx`: the check and the write are one step, so a file that appears meanwhile is not lost either.
    await writeFile(out, text, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      return refuse(`${out} exists: not overwritten (--force overwrites it, --out writes elsewhere)`);
    return refuse(`${out}: cannot write the feed file (${code ?? (error as Error).message})`);
  }

  const open = decisions.filter((d) => d.required);
  const leftOut = decisions.filter((d) => !d.required);
  const lines = [
    `wrote ${out} from ${from} (${inference.sample.rows} rows looked at${inference.sample.complete ? '' : inference.format.value === 'database' ? ', the first of more' : `, ${inference.sample.bytes} bytes of it read`})`,
    'inferred (sure: the values prove it; guess: likely, check it; ask: yours to decide):',
    ...inferredText(inferredRows(inference)),
    ...(open.length
      ? [
          `to fill in before check and sync accept the feed (each "<fill in: ...>" in ${out}):`,
          ...open.map((d) => `  ${d.key}: ${d.what}`),
        ]
      : ['nothing left to fill in']),
    ...(leftOut.length
      ? ['left out (optional, commented in the file):', ...leftOut.map((d) => `  ${d.key}: ${d.what}`)]
      : []),
    ...(inference.notes.length ? ['notes:', ...inference.notes.map((n) => `  ${n}`)] : []),
    `next: erp-bridge check ${out}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.OK;
}
