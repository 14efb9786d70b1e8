import { createConnection } from 'node:net';

export interface Probe {
  /** What to send once connected (nothing for servers that speak first, like sshd). */
  send?: string;
  /** Whether the first data the server sends is the answer of a server that is up. */
  accept(data: Buffer): boolean;
  /** For the error: `redis on port 6379 did not answer PING`. */
  failure: string;
}

/**
 * Connects over a raw socket until the server answers as `probe` expects (no client library, no
 * error-event noise), within `timeoutMs`: a bounded poll instead of a fixed sleep.
 */
export async function waitForAnswer(
  host: string,
  port: number,
  probe: Probe,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host, port });
      socket.setTimeout(500, () => socket.destroy());
      socket.once('connect', () => {
        if (probe.send !== undefined) socket.write(probe.send);
      });
      socket.once('data', (data) => {
        socket.destroy();
        resolve(probe.accept(data));
      });
      socket.once('close', () => resolve(false));
      socket.once('error', () => {});
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(probe.failure);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
