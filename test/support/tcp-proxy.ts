import { connect, createServer, type Socket } from 'node:net';

export interface CutOptions {
  /** After the cut, hold new connections (accepted, not forwarded) until `release()`. */
  hold?: boolean;
}

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /**
   * Arms one cut: the first connection that has carried `bytes` bytes from the server is reset
   * (RST) on both sides, as a dropped network path looks to the client. Resolves once it is cut.
   */
  cutAfter(bytes: number, options?: CutOptions): Promise<void>;
  /** Forwards the connections held since a cut with `hold`, and every new one. */
  release(): void;
  /** Connections accepted so far. */
  connections(): number;
  stop(): Promise<void>;
}

interface Armed {
  bytes: number;
  hold: boolean;
  done: () => void;
}

/**
 * A loopback TCP proxy in front of a real server, for transient network failures that are real
 * resets of real connections: nothing is mocked, the bytes before the cut are the server's own.
 */
export async function startTcpProxy(upstreamPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const waiting: Socket[] = [];
  let armed: Armed | undefined;
  let holding = false;
  let accepted = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };

  const forward = (client: Socket) => {
    const upstream = connect({ host: '127.0.0.1', port: upstreamPort });
    track(upstream);
    let carried = 0;
    upstream.on('data', (chunk: Buffer) => {
      const cut = armed;
      if (cut && carried + chunk.length >= cut.bytes) {
        armed = undefined;
        holding = cut.hold;
        client.write(chunk.subarray(0, Math.max(0, cut.bytes - carried)));
        client.resetAndDestroy();
        upstream.destroy();
        cut.done();
        return;
      }
      carried += chunk.length;
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.on('data', (chunk: Buffer) => {
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  };

  const server = createServer((client) => {
    accepted += 1;
    track(client);
    if (holding) waiting.push(client);
    else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('proxy has no port');

  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    cutAfter: (bytes, options = {}) =>
      new Promise<void>((resolve) => {
        armed = { bytes, hold: options.hold ?? false, done: resolve };
      }),
    release: () => {
      holding = false;
      for (const client of waiting.splice(0)) if (!client.destroyed) forward(client);
    },
    connections: () => accepted,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
