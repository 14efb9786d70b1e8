import { posix } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { stringsIn, variablesIn } from './compose-variables.js';
import type { ImageFiles } from './image-files.js';

export interface ComposeContext {
  /** Name used in messages. */
  file: string;
  /** Configuration keys the README documents. */
  documentedKeys: ReadonlySet<string>;
  /** Problems of an argument list given to the CLI (a service's command). */
  commandProblems(argv: readonly string[]): string[];
  /** The image's CMD, used by a service of our image that sets no command. */
  defaultCommand: readonly string[];
  /** Does a bind-mount source (relative to the compose file) exist? */
  exists(path: string): boolean;
  /** What the image holds, for file arguments of a command. */
  image: ImageFiles;
  /** Services that must stay scalable (`--scale`): no container_name, no fixed host port. */
  scalable: readonly string[];
}

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The part of the Compose model these checks read; everything else passes through unread. */
const Service = z.looseObject({
  build: z.unknown().optional(),
  image: z.string().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  entrypoint: z.unknown().optional(),
  environment: z.union([z.record(z.string(), Scalar), z.array(z.string())]).optional(),
  env_file: z.unknown().optional(),
  container_name: z.string().optional(),
  ports: z
    .array(z.union([z.string(), z.number(), z.looseObject({ published: Scalar.optional() })]))
    .optional(),
  volumes: z
    .array(
      z.union([z.string(), z.looseObject({ source: z.string().optional(), target: z.string().optional() })]),
    )
    .optional(),
  depends_on: z.union([z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
});
type Service = z.infer<typeof Service>;

const Compose = z.looseObject({
  services: z.record(z.string(), Service),
  volumes: z.record(z.string(), z.unknown()).optional(),
});
type Compose = z.infer<typeof Compose>;

function interpolationProblems(model: unknown, ctx: ComposeContext): string[] {
  const problems = new Set<string>();
  for (const text of stringsIn(model)) {
    const { names, invalid } = variablesIn(text);
    if (invalid)
      problems.add(`${ctx.file}: "${text}" is not a valid interpolation (write $$ for a literal $)`);
    for (const name of names)
      if (!ctx.documentedKeys.has(name))
        problems.add(
          `${ctx.file}: reads ${name} from the shell or .env, which docs/configuration.md does not document as a configuration key`,
        );
  }
  return [...problems];
}

function environmentKeys(service: Service): string[] {
  const env = service.environment;
  if (!env) return [];
  return Array.isArray(env) ? env.map((entry) => entry.split('=')[0] ?? entry) : Object.keys(env);
}

interface Mount {
  source: string;
  target: string;
}

function mounts(service: Service): Mount[] {
  return (service.volumes ?? []).flatMap((volume) => {
    const [source, target] = typeof volume === 'string' ? volume.split(':') : [volume.source, volume.target];
    return source && target ? [{ source, target }] : [];
  });
}

/**
 * File arguments (words with a /) must exist where the container will look: in a bind mount's
 * source, else in what the image copies from the repository. Paths inside named volumes, or
 * written by the build, cannot be known here and are left alone.
 */
function fileArgumentProblems(argv: readonly string[], service: Service, ctx: ComposeContext): string[] {
  const problems: string[] = [];
  for (const word of argv.slice(1)) {
    if (word.startsWith('-') || !word.includes('/')) continue;
    const path = posix.resolve(ctx.image.workdir, word);
    const mount = mounts(service).findLast((m) => path === m.target || path.startsWith(`${m.target}/`));
    const found = !mount
      ? ctx.image.has(path)
      : mount.source.startsWith('.')
        ? ctx.exists(posix.join(mount.source, path.slice(mount.target.length)))
        : undefined;
    if (found === false) problems.push(`${word} is neither in the image nor in a mounted folder`);
  }
  return problems;
}

function commandOf(service: Service, ctx: ComposeContext): readonly string[] {
  if (service.command === undefined) return ctx.defaultCommand;
  return typeof service.command === 'string' ? service.command.split(/\s+/).filter(Boolean) : service.command;
}

/** Checks a service that runs our image: its command reaches the CLI, its variables are documented. */
function imageServiceProblems(name: string, service: Service, ctx: ComposeContext): string[] {
  const at = `${ctx.file}: service ${name}`;
  const problems: string[] = [];
  if (service.entrypoint !== undefined)
    problems.push(`${at} replaces the entrypoint, so its command is not the CLI's`);
  else {
    const argv = commandOf(service, ctx);
    const argvProblems = [...ctx.commandProblems(argv), ...fileArgumentProblems(argv, service, ctx)];
    problems.push(...argvProblems.map((p) => `${at}: ${p}`));
  }
  if (service.env_file !== undefined)
    problems.push(`${at} uses env_file, which hides what it sets; list the variables under environment`);
  for (const key of environmentKeys(service))
    if (!ctx.documentedKeys.has(key))
      problems.push(
        `${at} sets ${key}, which docs/configuration.md does not document as a configuration key`,
      );
  return problems;
}

function hostPort(port: NonNullable<Service['ports']>[number]): string | undefined {
  if (typeof port === 'number') return undefined;
  if (typeof port === 'object') return port.published == null ? undefined : String(port.published);
  const parts = port.replace(/\/(tcp|udp)$/, '').split(':');
  const published = parts.length === 3 ? parts[1] : parts.length === 2 ? parts[0] : undefined;
  return published === '' ? undefined : published;
}

/** What Compose itself would refuse or silently get wrong: dangling names, missing bind sources. */
function wiringProblems(name: string, service: Service, model: Compose, ctx: ComposeContext): string[] {
  const at = `${ctx.file}: service ${name}`;
  const problems: string[] = [];
  const dependsOn = Array.isArray(service.depends_on)
    ? service.depends_on
    : Object.keys(service.depends_on ?? {});
  for (const other of dependsOn)
    if (!(other in model.services)) problems.push(`${at} depends on ${other}, which is not a service`);
  for (const { source } of mounts(service)) {
    if (/^[./~]/.test(source)) {
      // A missing bind source is created by the Docker daemon, empty and owned by root.
      if (source.startsWith('.') && !ctx.exists(source))
        problems.push(`${at} mounts ${source}, which does not exist`);
    } else if (!(source in (model.volumes ?? {}))) {
      problems.push(`${at} mounts the volume ${source}, which the top-level volumes do not declare`);
    }
  }
  if (ctx.scalable.includes(name)) {
    if (service.container_name !== undefined)
      problems.push(`${at} sets container_name, so --scale ${name}=3 cannot start a second one`);
    for (const port of service.ports ?? [])
      if (hostPort(port) !== undefined)
        problems.push(
          `${at} publishes a fixed host port (${JSON.stringify(port)}), so --scale ${name}=3 fails`,
        );
  }
  return problems;
}

/** Every problem of the compose file that `docker compose up` would hit or that breaks our rules. */
export function composeProblems(text: string, ctx: ComposeContext): string[] {
  // merge: true resolves `<<: *anchor` as Compose does, so merged variables are checked too.
  const doc = parseDocument(text, { merge: true, prettyErrors: true });
  if (doc.errors.length > 0) return doc.errors.map((e) => `${ctx.file}: ${e.message.split('\n')[0]}`);
  const raw: unknown = doc.toJS({ maxAliasCount: -1 });
  const parsed = Compose.safeParse(raw);
  if (!parsed.success)
    return parsed.error.issues.map((issue) => `${ctx.file}: ${issue.path.join('.')}: ${issue.message}`);
  const model = parsed.data;
  const ourImages = new Set(
    Object.values(model.services).flatMap((s) => (s.build !== undefined && s.image ? [s.image] : [])),
  );
  const problems = [...interpolationProblems(raw, ctx)];
  for (const name of ctx.scalable)
    if (!(name in model.services)) problems.push(`${ctx.file}: no service ${name}`);
  for (const [name, service] of Object.entries(model.services)) {
    const ours = service.build !== undefined || (service.image !== undefined && ourImages.has(service.image));
    if (ours) problems.push(...imageServiceProblems(name, service, ctx));
    problems.push(...wiringProblems(name, service, model, ctx));
  }
  return problems;
}
