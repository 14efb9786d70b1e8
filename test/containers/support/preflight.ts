import { podman } from './podman.js';

/**
 * The public base images the Dockerfile and the lab name. They must exist locally: pulled from a
 * registry where one is reachable, or stand-ins built beforehand (CI's .ci/run does that when it
 * has the container lab); this test never fetches or builds them itself.
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
  if (version.code === 127) return 'podman is not installed';
  if (process.getuid?.() !== 0)
    return 'not running as root (the container lab sets podman up for root only; rootless podman is not configured here)';
  const info = await podman(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.code !== 0) return `podman does not work here: ${info.stderr.trim().split('\n').pop() ?? ''}`;
  const missing: string[] = [];
  for (const image of BASE_IMAGES)
    if ((await podman(['image', 'exists', image])).code !== 0) missing.push(image);
  if (missing.length > 0)
    return `base images missing: ${missing.join(', ')} (pull them, or build local stand-ins, before running this test)`;
  return undefined;
}
