import { podman } from './podman.js';

/**
 * The public base images the Dockerfile and the lab name. With no image registry reachable, they
 * must exist locally: ../shared/container-lab/setup.sh builds stand-ins for them.
 */
export const BASE_IMAGES = [
  'docker.io/library/node:24-bookworm-slim',
  'docker.io/library/debian:bookworm-slim',
  'docker.io/library/redis:7-alpine',
] as const;

/**
 * Why the container tests cannot run on this machine, or undefined when they can: podman missing,
 * not root (the lab's podman is set up for root only), podman not working, or base images missing.
 */
export async function whyPodmanCannotRun(): Promise<string | undefined> {
  const version = await podman(['--version']);
  if (version.code === 127)
    return 'podman is not installed (run: bash ../shared/container-lab/setup.sh, as root)';
  if (process.getuid?.() !== 0)
    return 'not running as root (the container lab sets podman up for root only; rootless podman is not configured here)';
  const info = await podman(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.code !== 0) return `podman does not work here: ${info.stderr.trim().split('\n').pop() ?? ''}`;
  const missing: string[] = [];
  for (const image of BASE_IMAGES)
    if ((await podman(['image', 'exists', image])).code !== 0) missing.push(image);
  if (missing.length > 0)
    return `base images missing (no registry is reachable): ${missing.join(', ')}; run bash ../shared/container-lab/setup.sh (as root) to build their stand-ins`;
  return undefined;
}
