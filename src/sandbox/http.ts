import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidRequest } from './fault.js';

/** Requests larger than this are refused; a 1000-item bulk body is well below 2 MiB. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw invalidRequest(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Query string as an object; a repeated key becomes an array (`externalId=a&externalId=b`). */
export function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    out[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

export function isJson(req: IncomingMessage): boolean {
  return /^application\/json\b/i.test(req.headers['content-type'] ?? '');
}

/** What an echoing fault quotes of a request: its Authorization header and its body, verbatim. */
export function echoedRequest(req: IncomingMessage, body: Buffer): string {
  return `authorization ${req.headers.authorization ?? '(none)'}, body ${body.toString('utf8')}`;
}

/** A listening server: its origin (`http://HOST:PORT`, IPv6 hosts bracketed) and how to stop it. */
export interface Listening {
  origin: string;
  close(): Promise<void>;
}

/** Listens on HOST:PORT (0: any free port); close() also ends kept-alive connections. */
export async function listenOn(server: Server, host: string, port: number): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
