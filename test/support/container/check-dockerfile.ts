import { posix } from 'node:path';
import { argumentWords, type Instruction, parseDockerfile, type Stage } from './dockerfile.js';

export interface DockerfileContext {
  /** Name used in messages. */
  file: string;
  /** Does `path` (relative to the build context; may hold * and ?) match a file or folder? */
  exists(path: string): boolean;
  /** Does .dockerignore leave `path` out of the build context? */
  ignored(path: string): boolean;
  /** Files the TypeScript build writes, relative to the context (dist/src/cli/main.js …). */
  builtFiles: ReadonlySet<string>;
  /** Major version of Node.js the runtime image must run. */
  nodeMajor: number;
  /** package.json has a "prepare" script (npm runs it on install unless --ignore-scripts). */
  hasPrepareScript: boolean;
  /** Problems of an argument list given to the CLI (the default CMD). */
  commandProblems(argv: readonly string[]): string[];
}

const ROOT_USERS = new Set(['root', '0']);

/** The stage and the stages it is built FROM, oldest first: settings such as USER are inherited. */
function lineage(stages: readonly Stage[], stage: Stage): Stage[] {
  const parent = stages.find((s) => s.index < stage.index && s.name === stage.from);
  return parent ? [...lineage(stages, parent), stage] : [stage];
}

function last(stages: readonly Stage[], keyword: string): Instruction | undefined {
  return stages.flatMap((s) => s.instructions).findLast((i) => i.keyword === keyword);
}

function workdir(stages: readonly Stage[]): string {
  let dir = '/';
  for (const i of stages.flatMap((s) => s.instructions))
    if (i.keyword === 'WORKDIR') dir = posix.resolve(dir, i.rest);
  return dir;
}

function copyProblems(stages: readonly Stage[], stage: Stage, ctx: DockerfileContext): string[] {
  const problems: string[] = [];
  for (const i of stage.instructions) {
    if (i.keyword !== 'COPY' && i.keyword !== 'ADD') continue;
    const at = `${ctx.file}:${i.line}: ${i.keyword}`;
    const from = i.flags.get('from');
    if (from !== undefined) {
      const earlier = stages.some(
        (s) => s.index < stage.index && (s.name === from || String(s.index) === from),
      );
      // Anything else is pulled as an image: a typo in a stage name fails only at build time.
      if (!earlier && !/[:/@]/.test(from))
        problems.push(`${at} --from=${from}: no earlier stage has that name`);
      continue;
    }
    const words = argumentWords(i);
    if (words.length < 2) {
      problems.push(`${at} needs a source and a destination`);
      continue;
    }
    for (const source of words.slice(0, -1)) {
      if (i.keyword === 'ADD' && /^(https?|git):|^git@/.test(source)) continue;
      if (!ctx.exists(source)) problems.push(`${at} ${source}: not in the build context`);
      else if (ctx.ignored(source)) problems.push(`${at} ${source}: excluded by .dockerignore`);
    }
  }
  return problems;
}

/** ENTRYPOINT ["node", "<script>"]: the script must come out of the build and be copied in. */
function entrypointProblems(chain: readonly Stage[], ctx: DockerfileContext): string[] {
  const entrypoint = last(chain, 'ENTRYPOINT');
  const [runner, ...args] = entrypoint?.exec ?? [];
  const script = args.find((arg) => !arg.startsWith('-'));
  if (!entrypoint || runner !== 'node' || !script)
    return [`${ctx.file}: the runtime stage needs ENTRYPOINT ["node", "<built script>"] (exec form)`];
  const at = `${ctx.file}:${entrypoint.line}: ENTRYPOINT`;
  const dir = workdir(chain);
  const inImage = posix.resolve(dir, script);
  const fromBuild = posix.relative(dir, inImage);
  const problems: string[] = [];
  if (!ctx.builtFiles.has(fromBuild))
    problems.push(`${at} ${script}: the TypeScript build writes no such file`);
  const copied = chain
    .flatMap((s) => s.instructions)
    .some((i) => {
      const dest = i.keyword === 'COPY' && i.flags.has('from') ? argumentWords(i).at(-1) : undefined;
      return dest !== undefined && inImage.startsWith(`${posix.resolve(dir, dest)}/`);
    });
  if (!copied) problems.push(`${at} ${script}: no COPY --from=<build stage> puts it into the runtime image`);
  return problems;
}

function runtimeProblems(stages: readonly Stage[], runtime: Stage, ctx: DockerfileContext): string[] {
  const problems: string[] = [];
  const chain = lineage(stages, runtime);
  const base = chain[0]?.from ?? '';
  if (!new RegExp(`^(docker\\.io/(library/)?)?node:${ctx.nodeMajor}([.-]|$)`).test(base))
    problems.push(`${ctx.file}: the runtime stage is based on ${base}, expected node:${ctx.nodeMajor}…`);
  const user = last(chain, 'USER');
  if (!user) problems.push(`${ctx.file}: the runtime stage sets no USER, so it runs as root`);
  else if (ROOT_USERS.has(user.rest.split(':')[0] ?? ''))
    problems.push(`${ctx.file}:${user.line}: USER ${user.rest} runs as root`);
  const health = last(chain, 'HEALTHCHECK');
  if (!health || /^NONE$/i.test(health.rest))
    problems.push(`${ctx.file}: the runtime stage has no HEALTHCHECK`);
  else if (!health.rest.includes('/healthz'))
    problems.push(`${ctx.file}:${health.line}: HEALTHCHECK does not ask /healthz`);
  problems.push(...entrypointProblems(chain, ctx));
  const cmd = last(chain, 'CMD');
  if (cmd && !cmd.exec)
    problems.push(`${ctx.file}:${cmd.line}: CMD must be in exec form to reach the ENTRYPOINT as arguments`);
  else if (cmd?.exec)
    problems.push(...ctx.commandProblems(cmd.exec).map((p) => `${ctx.file}:${cmd.line}: CMD ${p}`));
  return problems;
}

/** `npm ci --omit=dev` runs "prepare" (our tsc build) unless --ignore-scripts: tsc is a dev dependency. */
function installProblems(stage: Stage, ctx: DockerfileContext): string[] {
  if (!ctx.hasPrepareScript) return [];
  return stage.instructions
    .filter(
      (i) =>
        i.keyword === 'RUN' &&
        /\bnpm\s+(ci|install|i)\b/.test(i.rest) &&
        /--omit[= ]dev|--production\b/.test(i.rest) &&
        !i.rest.includes('--ignore-scripts'),
    )
    .map(
      (i) =>
        `${ctx.file}:${i.line}: RUN ${i.rest}: the "prepare" build needs dev dependencies; add --ignore-scripts`,
    );
}

/** Every problem of the Dockerfile that a build or a container start would hit, without Docker. */
export function dockerfileProblems(text: string, ctx: DockerfileContext): string[] {
  const stages = parseDockerfile(text);
  const runtime = stages.at(-1);
  if (!runtime) return [`${ctx.file}: no FROM instruction`];
  return [
    ...stages.flatMap((stage) => [...copyProblems(stages, stage, ctx), ...installProblems(stage, ctx)]),
    ...runtimeProblems(stages, runtime, ctx),
  ];
}
