import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { FEED_NAME } from '../../config/feed.js';
import { feedNameFor, sourcePathFor } from '../../init/export-name.js';
import { inferFeed } from '../../init/feed-inference.js';
import { feedYaml } from '../../init/feed-yaml.js';
import { inferredRows, inferredText } from '../../init/inference-lines.js';
import { readSample } from '../../init/sample.js';
import type { RecordKind } from '../../kinds/registry.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

export interface InitFlags {
  kind?: RecordKind;
  name?: string;
  accountId?: number;
  out?: string;
  force: boolean;
}

/** The refusal of `init`: the settings or the export are wrong (exit 2), nothing written. */
function refuse(message: string): ExitCode {
  process.stderr.write(`erp-bridge init: ${message}\n`);
  return EXIT.INVALID_CONFIG;
}

/**
 * Infers a feed from one export, writes it (never over an existing file without --force) and
 * prints what was inferred, how sure, what is left to decide and the command to run next.
 */
export async function init(exportPath: string, flags: InitFlags): Promise<ExitCode> {
  const name = flags.name ?? feedNameFor(exportPath);
  if (!FEED_NAME.test(name))
    return refuse(
      `--name "${name}": expected letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  const out = flags.out ?? join('config', 'feeds', `${name}.yaml`);

  let sample: Awaited<ReturnType<typeof readSample>>;
  try {
    // Local paths only (for now): said plainly before the location's messages, made for a listed file.
    const found = await stat(exportPath);
    if (!found.isFile()) return refuse(`${exportPath}: not a file`);
    sample = await readSample(resolve(exportPath));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message);
    return refuse(`${exportPath}: cannot read the export (${why})`);
  }
  const inferred = await inferFeed(sample, flags.kind ? { kind: flags.kind } : {});
  if (!inferred.ok) return refuse(`${exportPath}: not an export init can read: ${inferred.problem}`);
  const { inference } = inferred;

  const { text, decisions } = feedYaml(inference, {
    name,
    exportName: basename(exportPath),
    sourcePath: sourcePathFor(resolve(exportPath), resolve(out)),
    ...(flags.accountId === undefined ? {} : { accountId: flags.accountId }),
  });
  try {
    await mkdir(dirname(resolve(out)), { recursive: true });
    // `wx`: the check and the write are one step, so a file that appears meanwhile is not lost either.
    await writeFile(out, text, { flag: flags.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      return refuse(`${out} exists: not overwritten (--force overwrites it, --out writes elsewhere)`);
    return refuse(`${out}: cannot write the feed file (${code ?? (error as Error).message})`);
  }

  const open = decisions.filter((d) => d.required);
  const leftOut = decisions.filter((d) => !d.required);
  const lines = [
    `wrote ${out} from ${exportPath} (${inference.sample.rows} rows looked at${inference.sample.complete ? '' : `, the first ${inference.sample.bytes} bytes`})`,
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
