import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { databaseLabel } from '../sources/database/database-settings.js';
import { isDatabaseSource } from '../sources/formats/registry.js';
import { isRemote } from '../sources/locations/source-keys.js';
import { ConfigError, describeIssues } from './errors.js';
import { Feed } from './feed.js';
import { findPlaceholders } from './placeholder.js';

export interface LoadedFeed {
  feed: Feed;
  /** Absolute path of the feed file. */
  file: string;
  /**
   * A database feed: its table or query's label (databaseLabel). Else the glob of its exports: local, source.path resolved against the feed file's folder; on a
   * remote location (SFTP, S3) source.path as given, a path on the server or a key pattern.
   */
  sourceGlob: string;
}

/** Parses feed YAML text; every problem names the file, the key path and what was expected. */
export function parseFeed(text: string, file: string): LoadedFeed {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      `${file}: not valid YAML`,
      doc.errors.map((e) => e.message.split('\n')[0] ?? e.message),
    );
  }
  const parsed: unknown = doc.toJS();
  // Before the schema: a placeholder is a decision left open, said as such (not as a wrong type),
  // and refused even where its text would pass (here, so sync, check, enqueue and reconcile all refuse it).
  const open = findPlaceholders(parsed);
  if (open.length > 0)
    throw new ConfigError(
      `${file}: not filled in yet (erp-bridge init left these for you to decide; replace each "<fill in: ...>")`,
      open.map(({ key, what }) => `${key}: fill in ${what}`),
    );
  const result = Feed.safeParse(parsed);
  if (!result.success) throw new ConfigError(`${file}: invalid feed`, describeIssues(result.error));
  const absolute = resolve(file);
  const { source } = result.data;
  return {
    feed: result.data,
    file: absolute,
    // A database source lists no files: its one "export" is its table or query, by its label.
    sourceGlob: isDatabaseSource(source)
      ? databaseLabel(source)
      : isRemote(source.location)
        ? source.path
        : resolve(dirname(absolute), source.path),
  };
}

export async function loadFeedFile(file: string): Promise<LoadedFeed> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${file}: cannot read the feed file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  return parseFeed(text, file);
}

/** Loads several feed files and refuses duplicate feed names (names key runs and schedules). */
export async function loadFeedFiles(files: readonly string[]): Promise<LoadedFeed[]> {
  const loaded = await Promise.all(files.map(loadFeedFile));
  const seen = new Map<string, string>();
  for (const { feed, file } of loaded) {
    const other = seen.get(feed.name);
    if (other)
      throw new ConfigError(
        `feed name "${feed.name}" is used by both ${other} and ${file}; names must be unique`,
      );
    seen.set(feed.name, file);
  }
  return loaded;
}
