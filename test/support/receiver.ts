import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the test receiver saw it, with its own verdict on the signature. */
export interface Received {
  eventId: string;
  eventType: string;
  timestamp: number;
  signature: string;
  schemaVersion: string;
  contentType: string;
  body: string;
  /** Every request header, lower-case names. */
  headers: Record<string, string>;
  /** Checked here, independently of the code under test. */
  signatureValid: boolean;
  /** Which request for this event this was, from 1. */
  nth: number;
}

/**
 * How the receiver answers one request: a status (after `delayMs`, or once `until` settles), or it
 * misbehaves: `hang` (never answers), `reset` (drops the connection without answering),
 * `stallBody` (sends 200 and its headers at once, then never finishes the body).
 */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  hang?: boolean;
  reset?: boolean;
  stallBody?: boolean;
  delayMs?: number;
  /** Answer only once this settles (the test decides when an attempt in flight ends). */
  until?: Promise<void>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves when `n` requests have arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

function expectedSignature(secret: string, timestamp: string, raw: string): string {
  return (
    'v1=' +
    createHmac('sha256', secret)
      .update(timestamp + '.' + raw, 'utf8')
      .digest('hex')
  );
}

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : (v ?? '');
}

/**
 * The one webhook receiver of the tests: a real HTTP server on 127.0.0.1 (ephemeral port) that
 * verifies every signature it gets and answers, or misbehaves, as `respond` says for each request
 * (`n` counts every request it got, `r.nth` those of the same event).
 */
export async function startReceiver(
  secret: string,
  respond: (r: Received, n: number) => Reply = () => ({ status: 204 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const ts = header(req, 'x-service-timestamp');
      const signature = header(req, 'x-service-signature');
      const expected = Buffer.from(expectedSignature(secret, ts, body));
      const eventId = header(req, 'x-service-event-id');
      const r: Received = {
        eventId,
        eventType: header(req, 'x-service-event-type'),
        timestamp: Number(ts),
        signature,
        schemaVersion: header(req, 'x-service-schema-version'),
        contentType: header(req, 'content-type'),
        body,
        headers: Object.fromEntries(Object.keys(req.headers).map((name) => [name, header(req, name)])),
        signatureValid: expected.length === Buffer.byteLength(signature) && timingSafeEqual(expected, Buffer.from(signature)),
        nth: received.filter((x) => x.eventId === eventId).length + 1,
      };
      received.push(r);
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
      const reply = respond(r, received.length);
      if (reply.hang) return;
      if (reply.reset) return void req.socket.resetAndDestroy();
      if (reply.stallBody) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('accepted, and then nothing more');
        return;
      }
      const answer = () =>
        setTimeout(() => {
          res.writeHead(reply.status ?? 204, reply.headers ?? {});
          res.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
      if (reply.until) void reply.until.then(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    arrived: (n) =>
      new Promise<void>((resolve) => {
        if (received.length >= n) resolve();
        else waiters.push({ n, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL on which nothing listens (connection refused). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
