import { randomBytes } from 'node:crypto';
import { podman, podmanOk } from './podman.js';

export interface RunOptions {
  /** Environment variables (`-e NAME=value`: only for values that are no secret). */
  env?: Record<string, string>;
  /** podman secrets handed to the container as environment variables: secret name -> variable. */
  secretEnv?: Record<string, string>;
  entrypoint?: string;
  /** Arguments after the image (the command). */
  command?: readonly string[];
}

/**
 * One test run's containers on one podman network of their own, named `<prefix>-<role>`, so that
 * runs never meet and everything they made is removed by `cleanup` (also after a failure). Each
 * container stands for a host: it shares no volume with any other one; files get in by `podman cp`.
 */
export class ContainerLab {
  readonly prefix = `erpb-lab-${randomBytes(3).toString('hex')}`;
  readonly network = `${this.prefix}-net`;
  private readonly containers: string[] = [];
  private readonly secrets: string[] = [];

  name(role: string): string {
    return `${this.prefix}-${role}`;
  }

  async open(): Promise<void> {
    await podmanOk(['network', 'create', this.network]);
  }

  /** Creates the container of `role` (not started): files can be copied in before it runs. */
  async create(role: string, image: string, options: RunOptions = {}): Promise<string> {
    const name = this.name(role);
    const args = ['create', '--name', name, '--hostname', role, '--network', this.network];
    // Other containers reach it by its role, as by a host name.
    args.push('--network-alias', role);
    for (const [key, value] of Object.entries(options.env ?? {})) args.push('-e', `${key}=${value}`);
    for (const [secret, variable] of Object.entries(options.secretEnv ?? {}))
      args.push('--secret', `${secret},type=env,target=${variable}`);
    if (options.entrypoint !== undefined) args.push('--entrypoint', options.entrypoint);
    args.push(image, ...(options.command ?? []));
    await podmanOk(args);
    this.containers.push(name);
    return name;
  }

  async start(name: string): Promise<void> {
    await podmanOk(['start', name]);
  }

  /** Starts a created one-shot container, waits for it to end; returns its exit code and logs. */
  async runToEnd(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
    await podmanOk(['start', name]);
    const code = Number((await podmanOk(['wait', name])).trim());
    const logs = await podman(['logs', name]);
    return { code, stdout: logs.stdout, stderr: logs.stderr };
  }

  /** Copies a host folder's contents into a container (running or not) at `target`. */
  async copyInto(name: string, hostDir: string, target: string): Promise<void> {
    await podmanOk(['cp', `${hostDir}/.`, `${name}:${target}`]);
  }

  /** A podman secret that lives as long as the lab (never on a command line or in `inspect`). */
  async secret(label: string, value: string): Promise<string> {
    const name = `${this.prefix}-${label}`;
    // From this process's child environment: podman's `-` wants a real pipe on stdin, and node
    // gives children a socket pair; an environment variable keeps the value off the disk and argv.
    await podmanOk(['secret', 'create', '--env', name, 'LAB_SECRET_VALUE'], {
      LAB_SECRET_VALUE: value,
    });
    this.secrets.push(name);
    return name;
  }

  /** stdout and stderr of a container so far (JSON log lines of erp-bridge go to stdout). */
  async logs(name: string): Promise<string> {
    const result = await podman(['logs', name]);
    return `${result.stdout}${result.stderr}`;
  }

  async exec(name: string, command: readonly string[]): Promise<string> {
    return podmanOk(['exec', name, ...command]);
  }

  async inspect(name: string, format: string): Promise<string> {
    return (await podmanOk(['inspect', name, '--format', format])).trim();
  }

  async cleanup(): Promise<void> {
    for (const name of this.containers.reverse()) await podman(['rm', '-f', '-t', '0', name]);
    for (const name of this.secrets) await podman(['secret', 'rm', name]);
    await podman(['network', 'rm', '-f', this.network]);
  }
}
