// A webhook receiver in its own process that answers 200 and counts what it got: at once, or, for
// a path starting /wait/<ms>/, after that many milliseconds (a partner endpoint that takes its
// time, as real ones do); a request to a path starting /hang is held and never answered (an
// endpoint that hangs).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let received = 0;
const server = createServer((req, res) => {
  req.resume();
  if (req.url?.startsWith('/hang')) return;
  const waitMs = Number(/^\/wait\/(\d+)\//.exec(req.url ?? '')?.[1] ?? 0);
  req.on('end', () => {
    received++;
    const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (waitMs > 0) setTimeout(answer, waitMs);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => {
  process.stderr.write(`receiver got ${received}\n`);
  process.exit(0);
});
