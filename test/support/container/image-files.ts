import { existsSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { argumentWords, type Stage } from './dockerfile.js';
import { contextPath } from './dockerignore.js';

export interface ImageFiles {
  /** The runtime stage's WORKDIR: where relative paths of a command resolve. */
  workdir: string;
  /**
   * Is `containerPath` (absolute) in the image? Answered for paths the runtime stage copies from
   * the build context (mapped back to the repository); undefined for anything else (built files,
   * folders made by RUN), which cannot be known without building.
   */
  has(containerPath: string): boolean | undefined;
}

/** Where the runtime stage's `COPY <context path> <dest>` instructions put the repository's files. */
export function imageFiles(runtime: Stage, root: string): ImageFiles {
  const copies: { target: string; source: string }[] = [];
  let workdir = '/';
  for (const i of runtime.instructions) {
    if (i.keyword === 'WORKDIR') workdir = posix.resolve(workdir, i.rest);
    if (i.keyword !== 'COPY' || i.flags.has('from')) continue;
    const words = argumentWords(i);
    const dest = words.at(-1) ?? '.';
    const sources = words.slice(0, -1).map(contextPath);
    for (const source of sources) {
      const into = posix.resolve(workdir, dest);
      const folder = existsSync(join(root, source)) && statSync(join(root, source)).isDirectory();
      // A folder's content lands in dest; a file lands in dest, or inside it when dest is a folder.
      const intoFolder = !folder && (dest.endsWith('/') || sources.length > 1);
      copies.push({ target: intoFolder ? posix.join(into, posix.basename(source)) : into, source });
    }
  }
  return {
    workdir,
    has(containerPath) {
      const copy = copies.findLast(
        (c) => containerPath === c.target || containerPath.startsWith(`${c.target}/`),
      );
      return copy ? existsSync(join(root, copy.source, containerPath.slice(copy.target.length))) : undefined;
    },
  };
}
