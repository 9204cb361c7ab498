// A webhook receiver in its own process that answers 200 at once and counts what it got; a
// request to a path starting /hang is held and never answered (an endpoint that hangs).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let received = 0;
const server = createServer((req, res) => {
  req.resume();
  if (req.url?.startsWith('/hang')) return;
  req.on('end', () => {
    received++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => {
  process.stderr.write(`receiver got ${received}\n`);
  process.exit(0);
});
