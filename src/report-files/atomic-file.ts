import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/**
 * Writes `text` to `path` aside and renames it into place: a kill mid-write leaves the previous
 * file (or none), never a truncated one that a reader would take for the whole.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const partial = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(partial, text);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** The text of a file written so (a state file beside the reports), or undefined when there is none yet. */
export async function readIfWritten(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
