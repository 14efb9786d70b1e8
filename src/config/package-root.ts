import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the nearest package.json above `moduleUrl` (a module's import.meta.url): the
 * package's root from src/ (tsx), from dist/src/ (tsc) and from the CLI's bundle alike
 * (dist/src/cli/chunks/), where a module's own position says nothing of its neighbours'.
 */
export function packageRoot(moduleUrl: string): string | undefined {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
