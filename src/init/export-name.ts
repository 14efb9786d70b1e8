import { basename, dirname, extname, relative, sep } from 'node:path';

/**
 * A bank or ERP names each export after its date or number (`umsaetze-2026-01.csv`,
 * `Export_20260131_4711.csv`): the feed reads every export of the series, so its glob puts a `*`
 * where the name holds digits (and the separators between them), keeping the rest.
 */
const NUMBERED = /\d+(?:[-_.]\d+)*/g;

/** The glob of the export's series within its folder: `umsaetze-2026-01.csv` -> `umsaetze-*.csv`. */
export function namePattern(fileName: string): string {
  return fileName.replace(NUMBERED, '*');
}

/**
 * `source.path` for an export read by a feed file: the folder relative to the feed file's folder
 * (the feed loader resolves it from there), in `/` form, then the name pattern.
 */
export function sourcePathFor(exportFile: string, feedFile: string): string {
  const folder = relative(dirname(feedFile), dirname(exportFile));
  const glob = namePattern(basename(exportFile));
  return folder === '' ? glob : `${folder.split(sep).join('/')}/${glob}`;
}

/**
 * `source.path` on a remote location, which takes it as is: the export's folder on the server (an
 * SFTP path is absolute) or its key prefix (S3), then the name pattern. Cut at the last `/` as
 * written, never normalised: an S3 key is a name, not a path.
 */
export function remoteSourcePath(path: string): string {
  const cut = path.lastIndexOf('/') + 1;
  return `${path.slice(0, cut)}${namePattern(path.slice(cut))}`;
}

const FOLDED: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/**
 * A feed name from the export's file name (the feed schema takes letters, digits, `.`, `_`, `-`,
 * starting with a letter or digit): the series' name without its dates, umlauts spelled out,
 * anything else a `-`; `feed` when nothing is left.
 */
export function feedNameFor(exportFile: string): string {
  const stem = basename(exportFile, extname(exportFile)).replace(NUMBERED, '');
  const name = stem
    .toLowerCase()
    .replace(/[äöüß]/g, (c) => FOLDED[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/[-_.]{2,}/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return name === '' ? 'feed' : name;
}
