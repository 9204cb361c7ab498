import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the receiver treats one request: answer (after `delayMs`), `hang` (never answer), `reset`
 * (drop the connection without answering), or `stall-body` (send 200 and its headers at once,
 * then never finish the body).
 */
export type Behaviour = { status: number; delayMs?: number } | 'hang' | 'reset' | 'stall-body';

/** One request as the receiver saw it, with its own verdict on the signature. */
export interface Arrival {
  eventId: string;
  /** Which request for this event this was, from 1. */
  nth: number;
  /** performance.now() when the request was read. */
  at: number;
  signatureValid: boolean;
}

export interface FlakyReceiver {
  url: string;
  arrivals: Arrival[];
  /** Resolves when `n` requests have arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : (v ?? '');
}

/** Checked independently of the code under test: v1=HMAC-SHA256(secret, timestamp + "." + body). */
function signatureValid(secret: string, req: IncomingMessage, body: string): boolean {
  const expected = Buffer.from('v1=' + createHmac('sha256', secret).update(`${header(req, 'x-service-timestamp')}.${body}`, 'utf8').digest('hex'));
  const got = Buffer.from(header(req, 'x-service-signature'));
  return expected.length === got.length && timingSafeEqual(expected, got);
}

/** A webhook receiver on 127.0.0.1 that misbehaves as told, per event and attempt. */
export async function startFlakyReceiver(secret: string, behave: (eventId: string, nth: number) => Behaviour): Promise<FlakyReceiver> {
  const arrivals: Arrival[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const eventId = header(req, 'x-service-event-id');
      const nth = arrivals.filter((a) => a.eventId === eventId).length + 1;
      arrivals.push({ eventId, nth, at: performance.now(), signatureValid: signatureValid(secret, req, Buffer.concat(chunks).toString('utf8')) });
      for (const w of waiters.filter((w) => arrivals.length >= w.n)) w.resolve();
      const b = behave(eventId, nth);
      if (b === 'hang') return;
      if (b === 'reset') return void req.socket.resetAndDestroy();
      if (b === 'stall-body') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('accepted, and then nothing more');
        return;
      }
      setTimeout(() => res.writeHead(b.status).end(), b.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    arrived: (n) => new Promise<void>((resolve) => {
      if (arrivals.length >= n) resolve();
      else waiters.push({ n, resolve });
    }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
