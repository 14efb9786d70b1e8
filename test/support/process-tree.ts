import { readdirSync, readFileSync } from 'node:fs';

/** Each running process's parent, read from /proc (Linux). */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while listed
    }
    // After the command's closing parenthesis: the state, then the parent's pid.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue; // a zombie is no longer running
    parentOf.set(Number(entry), Number(fields[1]));
  }
  return parentOf;
}

export function childrenOf(pid: number): number[] {
  return [...parents()].filter(([, parent]) => parent === pid).map(([child]) => child);
}

/** The processes below `pid`, parents before their children. */
export function descendantsOf(pid: number): number[] {
  const parentOf = [...parents()];
  const below = (of: number): number[] =>
    parentOf.filter(([, parent]) => parent === of).flatMap(([child]) => [child, ...below(child)]);
  return below(pid);
}

/** Signals a process that may have exited since it was listed. */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Polls (bounded, no fixed sleep) until none of `pids` runs any more. */
export async function waitUntilGone(pids: readonly number[], timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = parents();
    const left = pids.filter((pid) => running.has(pid));
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes ${left.join(', ')} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
