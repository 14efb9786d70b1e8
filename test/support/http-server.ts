import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the server does with a request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent verbatim (wins over json). */
  text?: string;
  /** Close the socket without answering (a reset as the client sees it). */
  destroy?: boolean;
  /** Never answer (until the server closes): for timeout and abort tests. */
  hang?: boolean;
}

export type Responder = Reply | ((request: RecordedRequest) => Reply | Promise<Reply>);

/**
 * A real node:http server on 127.0.0.1, port 0, one per test: undici is never mocked, so the
 * client's real sockets, timeouts and resets are what is tested. Tests script the answers per route and read back every request the client sent.
 */
export class TestServer {
  readonly requests: RecordedRequest[] = [];
  readonly #routes = new Map<string, { queue: Responder[]; always?: Responder }>();
  readonly #server: Server;
  #url = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(recorded);
        void this.#answer(recorded, res);
      });
    });
  }

  static async start(): Promise<TestServer> {
    const server = new TestServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    const { port } = server.#server.address() as AddressInfo;
    server.#url = `http://127.0.0.1:${port}`;
    return server;
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return this.#url;
  }

  /** Answers the next requests to `method path` with `replies`, in order, one each. */
  script(method: string, path: string, ...replies: Responder[]): this {
    const route = this.#route(method, path);
    route.queue.push(...replies);
    return this;
  }

  /** Answers every request to `method path` (after any scripted replies) with `reply`. */
  always(method: string, path: string, reply: Responder): this {
    this.#route(method, path).always = reply;
    return this;
  }

  /** Requests to one route. */
  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #route(method: string, path: string) {
    const key = `${method} ${path}`;
    let route = this.#routes.get(key);
    if (!route) {
      route = { queue: [] };
      this.#routes.set(key, route);
    }
    return route;
  }

  async #answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const route = this.#routes.get(`${request.method} ${request.path}`);
    const responder = route?.queue.shift() ?? route?.always;
    // An unscripted request answers 418 so that the test fails on it loudly, not by a timeout.
    const reply: Reply = responder
      ? typeof responder === 'function'
        ? await responder(request)
        : responder
      : { status: 418, json: { error: 'UNSCRIPTED', message: `${request.method} ${request.path}` } };
    if (reply.hang) return;
    if (reply.destroy) {
      res.socket?.destroy();
      return;
    }
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    const contentType = reply.text === undefined ? 'application/json' : 'text/plain';
    res.writeHead(reply.status ?? 200, { 'content-type': contentType, ...reply.headers });
    res.end(body);
  }
}
