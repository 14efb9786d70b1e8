/**
 * What a benchmark's runs ask of Redis: `INFO commandstats` before and after (calls per command,
 * server-wide, so the Redis should be the benchmark's own), and, for a profile, a MONITOR tally that
 * tells the commands clients sent (round trips) from those Lua scripts ran inside, with each script
 * named (BullMQ's by their file name, the others by the keys they touch).
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';

/** Calls per command name (`hget`, `evalsha`, `client|setname`, ...). */
export type CommandCalls = Map<string, number>;

/** The server's calls per command so far (INFO commandstats). */
export async function commandCalls(redis: Redis): Promise<CommandCalls> {
  const info = await redis.info('commandstats');
  const calls: CommandCalls = new Map();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    calls.set(match[1] as string, Number(match[2]));
  return calls;
}

/** after - before, per command; `own` (the benchmark's own calls meanwhile) is taken off. */
export function callsBetween(before: CommandCalls, after: CommandCalls, own: CommandCalls = new Map()) {
  const delta: CommandCalls = new Map();
  for (const [name, calls] of after) {
    const used = calls - (before.get(name) ?? 0) - (own.get(name) ?? 0);
    if (used > 0) delta.set(name, used);
  }
  return delta;
}

export const totalCalls = (calls: CommandCalls): number => [...calls.values()].reduce((a, b) => a + b, 0);

/** "evalsha 12.3, hget 4.0, ..." per run: the `top` commands with most calls. */
export function topCommands(calls: CommandCalls, runs: number, top = 8): string {
  return [...calls]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => `${name} ${(n / runs).toFixed(1)}`)
    .join(', ');
}

/** BullMQ's scripts by SHA1 (ioredis runs them by the SHA of their text), named like their files. */
async function bullmqScripts(): Promise<Map<string, string>> {
  const scripts: Record<string, unknown> = await import('bullmq/dist/esm/scripts/index.js');
  const byHash = new Map<string, string>();
  for (const script of Object.values(scripts)) {
    const { name, content } = script as { name?: unknown; content?: unknown };
    if (typeof name === 'string' && typeof content === 'string')
      byHash.set(createHash('sha1').update(content).digest('hex'), name);
  }
  return byHash;
}

/** A key with its prefix, run ids and numbers taken out: what a script touches, not which instance. */
const keyShape = (key: string, prefix: string) =>
  key
    .replace(prefix, '')
    .replace(/bench-s[a-z]*-\d+-\d{8}T\d{6}Z-[0-9a-f]+/g, '<run>')
    .replace(/bench-s[a-z]*-\d+/g, '<feed>')
    .replace(/\b\d+\b/g, '<n>');

export interface MonitorTally {
  /** Commands sent by clients, by name (an evalsha counts as its script's name). */
  sent: CommandCalls;
  /** Commands scripts ran inside Redis, by name. */
  inScripts: CommandCalls;
  stop(): Promise<void>;
}

/**
 * Counts every command Redis runs while it is on (MONITOR slows Redis: for a profile only, never
 * for the timed figures). Only commands touching `prefix` count, so the benchmark's own are left out.
 */
export async function monitorCommands(url: string, prefix: string): Promise<MonitorTally> {
  const scripts = await bullmqScripts();
  const client = new Redis(url, { maxRetriesPerRequest: null });
  const monitor = await client.monitor();
  const sent: CommandCalls = new Map();
  const inScripts: CommandCalls = new Map();
  const add = (to: CommandCalls, name: string) => to.set(name, (to.get(name) ?? 0) + 1);
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (!args.some((arg) => arg.includes(prefix))) return;
    const command = String(args[0]).toLowerCase();
    if (source === 'lua') return add(inScripts, command);
    if (command !== 'evalsha' && command !== 'eval') return add(sent, command);
    const sha = String(args[1]);
    const keys = args.slice(3, 3 + Number(args[2]));
    const name = scripts.get(sha) ?? `script(${keys.map((k) => keyShape(k, prefix)).join(' ')})`;
    add(sent, `${command}:${name}`);
  });
  return {
    sent,
    inScripts,
    stop: async () => {
      monitor.disconnect();
      client.disconnect();
    },
  };
}
