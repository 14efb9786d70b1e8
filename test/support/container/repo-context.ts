import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { buildProgram } from '../../../src/cli/program.js';
import { typescriptBuildOutputs } from './build-outputs.js';
import type { ComposeContext } from './check-compose.js';
import type { DockerfileContext } from './check-dockerfile.js';
import { cliArgsProblems } from './cli-args.js';
import { parseDockerfile } from './dockerfile.js';
import { contextPath, dockerIgnoreMatcher, dockerPathPattern } from './dockerignore.js';
import { documentedConfigKeys } from './documented-keys.js';
import { imageFiles } from './image-files.js';

/** The checks' view of this repository: its README, CLI, build and files on disk. */
export interface RepoContext {
  root: string;
  read(file: string): string;
  dockerfile: DockerfileContext;
  compose: ComposeContext;
}

/** A path of the build context; * and ? may appear in its last segment, as in `COPY package*.json`. */
function existsIn(root: string, path: string): boolean {
  const clean = contextPath(path) || '.';
  const name = posix.basename(clean);
  if (!/[*?[]/.test(name)) return existsSync(join(root, clean));
  const dir = join(root, posix.dirname(clean));
  const pattern = dockerPathPattern(name);
  return existsSync(dir) && readdirSync(dir).some((entry) => pattern.test(entry));
}

function commandProblems(argv: readonly string[]): string[] {
  // A fresh program per check: parsing leaves option values behind on the commands.
  return cliArgsProblems(buildProgram('0.0.0-check'), argv);
}

export function repoContext(root: string): RepoContext {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const ignored = dockerIgnoreMatcher(existsSync(join(root, '.dockerignore')) ? read('.dockerignore') : '');
  const pkg = JSON.parse(read('package.json')) as { scripts?: Record<string, string> };
  const runtime = parseDockerfile(read('Dockerfile')).at(-1) ?? { index: 0, from: '', instructions: [] };
  const cmd = runtime.instructions.findLast((i) => i.keyword === 'CMD')?.exec ?? [];
  return {
    root,
    read,
    dockerfile: {
      file: 'Dockerfile',
      exists: (path) => existsIn(root, path),
      ignored,
      builtFiles: typescriptBuildOutputs(join(root, 'tsconfig.build.json')),
      nodeMajor: 24,
      hasPrepareScript: pkg.scripts?.prepare !== undefined,
      commandProblems,
    },
    compose: {
      file: 'docker-compose.yml',
      documentedKeys: documentedConfigKeys(read('docs/configuration.md')),
      commandProblems,
      defaultCommand: cmd,
      exists: (path) => existsSync(join(root, path)),
      image: imageFiles(runtime, root),
      scalable: ['worker'],
    },
  };
}
