import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../config/package-root.js';

/** The browser modules shipped in dist/src/embed/browser, by the name they are served under. */
export type BrowserModule = 'embed' | 'demo-page';

const cache = new Map<BrowserModule, Promise<string>>();

/**
 * The JavaScript of a browser module, to serve as it is. Built, it is the .js that
 * tsconfig.browser.json emitted into dist/src/embed/browser: found from the package's root, since
 * in the CLI's bundle this code sits in dist/src/cli/chunks, not beside its folder. Run from source
 * (tsx: the tests and `erp-bridge` started from src/), the .ts is transpiled once with typescript,
 * a dev dependency that is always present where the sources are (never a build of other sources
 * that dist/ may still hold).
 */
export function browserModule(name: BrowserModule): Promise<string> {
  let text = cache.get(name);
  if (!text) {
    text = load(name);
    cache.set(name, text);
    text.catch(() => cache.delete(name));
  }
  return text;
}

async function load(name: BrowserModule): Promise<string> {
  const root = packageRoot(import.meta.url);
  if (!import.meta.url.endsWith('.ts') && root)
    return await readFile(join(root, 'dist/src/embed/browser', `${name}.js`), 'utf8');
  const source = await readFile(new URL(`../browser/${name}.ts`, import.meta.url), 'utf8');
  const ts = (await import('typescript')).default;
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}
