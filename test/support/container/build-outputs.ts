import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The .js files a `tsc -p <tsconfig>` build writes, relative to the tsconfig's folder (so
 * `dist/src/cli/main.js` for src/cli/main.ts with outDir dist and rootDir .). Read with the
 * TypeScript API itself, so `extends`, `include`, `rootDir` and `outDir` mean what they mean to tsc.
 */
export function typescriptBuildOutputs(tsconfigPath: string): Set<string> {
  const read = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const base = dirname(resolve(tsconfigPath));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, base, undefined, tsconfigPath);
  const { outDir, rootDir = base } = parsed.options;
  if (!outDir) throw new Error(`${tsconfigPath}: no outDir, so the build writes no output folder`);
  const outputs = new Set<string>();
  for (const file of parsed.fileNames) {
    if (file.endsWith('.d.ts') || !/\.[mc]?tsx?$/.test(file)) continue;
    const js = relative(rootDir, file).replace(/\.([mc]?)tsx?$/, '.$1js');
    outputs.add(relative(base, join(outDir, js)));
  }
  return outputs;
}
