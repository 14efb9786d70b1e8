/**
 * Caps a process at a share of one CPU with a Linux cgroup (v2 `cpu.max`, else v1 CFS quota), so a
 * 2-core machine can stand in for workers that each have their own (slower) core while the
 * sandbox and Redis keep spare CPU: what "when the sandbox is not the bottleneck" asks for.
 * Needs root and a cgroup file system with the cpu controller; `cpuCapAvailable()` says whether
 * this machine has one.
 */
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PERIOD_US = 100_000;

interface Hierarchy {
  root: string;
  /** Whether this machine has the hierarchy with a cpu controller for new groups. */
  present(): Promise<boolean>;
  limit(dir: string, quotaUs: number): Promise<void>;
}

const HIERARCHIES: Hierarchy[] = [
  {
    // cgroup v2 with the cpu controller enabled for children of the root.
    root: '/sys/fs/cgroup',
    present: async () =>
      (await readFile('/sys/fs/cgroup/cgroup.subtree_control', 'utf8')).split(/\s+/).includes('cpu'),
    limit: (dir, quotaUs) => writeFile(join(dir, 'cpu.max'), `${quotaUs} ${PERIOD_US}`),
  },
  {
    // cgroup v1's cpu controller.
    root: '/sys/fs/cgroup/cpu',
    present: () => access('/sys/fs/cgroup/cpu/cpu.cfs_quota_us').then(() => true),
    limit: async (dir, quotaUs) => {
      await writeFile(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      await writeFile(join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
    },
  },
];

async function usable(): Promise<Hierarchy | undefined> {
  for (const h of HIERARCHIES) if (await h.present().catch(() => false)) return h;
  return undefined;
}

export async function cpuCapAvailable(): Promise<boolean> {
  return (await usable()) !== undefined;
}

let groups = 0;

/** Moves `pid` into a new cgroup capped at `share` of one CPU; the returned function removes it. */
export async function capCpu(pid: number, share: number): Promise<() => Promise<void>> {
  const h = await usable();
  if (!h) throw new Error('capping CPU needs a writable cgroup cpu controller (root, /sys/fs/cgroup)');
  const dir = join(h.root, `erp-bridge-bench-${process.pid}-${++groups}`);
  await mkdir(dir);
  await h.limit(dir, Math.round(share * PERIOD_US));
  await writeFile(join(dir, 'cgroup.procs'), String(pid));
  // A cgroup can be removed once its processes are gone; the caller calls this after they exit.
  return () => rmdir(dir).catch(() => undefined);
}
