import { readFile } from 'node:fs/promises';

/** The browser modules shipped in dist/src/embed/browser, by the name they are served under. */
export type BrowserModule = 'embed' | 'demo-page';

const cache = new Map<BrowserModule, Promise<string>>();

/**
 * The JavaScript of a browser module, to serve as it is. Built, it is the .js that
 * tsconfig.browser.json emitted beside this file's folder. Run from source (tsx: the tests and
 * `erp-bridge` started from src/), only the .ts exists: it is transpiled once with typescript, a
 * dev dependency that is always present where the sources are.
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
  const built = new URL(`../browser/${name}.js`, import.meta.url);
  try {
    return await readFile(built, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const source = await readFile(new URL(`../browser/${name}.ts`, import.meta.url), 'utf8');
  const ts = (await import('typescript')).default;
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}
