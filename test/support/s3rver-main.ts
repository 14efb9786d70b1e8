/**
 * s3rver in a process of its own (started by test/support/s3-server.ts, never imported): node
 * must run with --openssl-legacy-provider, because s3rver 3.7.1 encrypts ListObjectsV2
 * continuation tokens with DES, which OpenSSL 3 (Node >= 17) only offers through its legacy
 * provider. Without it every listing of more than one page fails with a 500.
 *
 * Arguments: <directory> <bucket> [port] (default: a free one). Prints `{"port":N}` once listening. GET /__requests answers the
 * requests received so far (method, url, Range, If-Match), each logged before it is handled, so a
 * test that asks after an answer came back sees every request that led to it.
 */
import { createServer } from 'node:http';
import S3rver from 's3rver';

const [directory, bucket, port = '0'] = process.argv.slice(2);
if (!directory || !bucket) throw new Error('usage: s3rver-main.ts <directory> <bucket> [port]');

const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket }] });
await s3rver.configureBuckets();
const handle = s3rver.callback();
const requests: unknown[] = [];

const server = createServer((request, response) => {
  if (request.url === '/__requests') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(requests));
    return;
  }
  const { range, 'if-match': ifMatch } = request.headers;
  requests.push({ method: request.method, url: request.url, range, ifMatch });
  handle(request, response);
});
server.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address)
    process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
