import { rename, rm, writeFile } from 'node:fs/promises';

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
