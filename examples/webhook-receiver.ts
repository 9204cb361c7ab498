/**
 * A partner-side webhook receiver for the svc crew compliance events, using only Node built-ins.
 *
 *   WEBHOOK_SECRET=whsec_… PORT=8787 npx tsx examples/webhook-receiver.ts
 *   WEBHOOK_PUBLIC_KEYS=whpk_…[,whpk_…] npx tsx examples/webhook-receiver.ts   (Ed25519, no shared secret)
 *
 * What every receiver should do (docs/webhooks.md):
 * 1. Verify X-Service-Signature over the RAW body bytes (never a re-serialised JSON), comparing in
 *    constant time: exactly `v1=` + 64 lower-case hex digits of HMAC-SHA256(secret,
 *    `${X-Service-Timestamp}.${raw body}`). Compare the hex text itself: decoding it first would
 *    accept altered forms (upper case, trailing garbage, an odd digit) that Buffer.from drops.
 *    With WEBHOOK_PUBLIC_KEYS (the `webhook_public_keys` of GET /api/v2/partners/me), also, or
 *    instead, require one `v1a,` entry of `webhook-signature` to be an Ed25519 signature by one of
 *    those keys of `${webhook-id}.${webhook-timestamp}.${raw body}` (Standard Webhooks).
 * 2. Accept only a timestamp of digits without a leading zero, at most 300 s away from your clock
 *    (a captured request cannot be replayed later; there is no nonce).
 * 3. Deduplicate on event_id: delivery is at-least-once.
 * 4. Apply an event only when its `sequence` is above the highest applied for its `subject`:
 *    events can arrive out of order (a retry, a replay), and an older state must not overwrite a
 *    newer one. Answer a stale one 2xx too.
 * 5. Answer 2xx at once and process afterwards. Any other answer is retried, except a 4xx other
 *    than 408/429, which makes the service give up on the event (it is dead-lettered).
 */
import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';

export const TOLERANCE_SECONDS = 300;
/** The one form of a signature: the scheme, then the HMAC as 64 lower-case hex digits. */
const SIGNATURE = /^v1=[0-9a-f]{64}$/;
/** Unix seconds as the service writes them: digits, no sign, no leading zero. */
const TIMESTAMP = /^[1-9][0-9]{0,15}$/;
const MAX_BODY_BYTES = 1024 * 1024;

/** The envelope every event arrives in. */
export interface WebhookEvent {
  schema_version: number;
  event_id: string;
  event_type: string;
  occurred_at: string;
  partner_id: string;
  /** The event's number among your events, strictly increasing in the order they were created. */
  sequence?: number;
  /** The key of what it describes: of two events with the same subject, the higher sequence is newer. */
  subject?: string;
  data: Record<string, unknown>;
}

export type Verification = { ok: true } | { ok: false; reason: string };

/** Checks timestamp freshness and the signature of a raw body. */
export function verifyDelivery(
  secret: string,
  timestampHeader: string | undefined,
  signatureHeader: string | undefined,
  rawBody: Buffer,
  nowSeconds: number,
): Verification {
  if (!timestampHeader || !TIMESTAMP.test(timestampHeader)) return { ok: false, reason: 'missing or malformed X-Service-Timestamp' };
  if (Math.abs(nowSeconds - Number(timestampHeader)) > TOLERANCE_SECONDS)
    return { ok: false, reason: 'timestamp outside the 300 s tolerance' };
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestampHeader}.`).update(rawBody).digest('hex')}`, 'latin1');
  // Several signatures may be sent one day (during a secret rotation); any exact match is enough.
  const candidates = (signatureHeader ?? '').split(/[ ,]+/).filter((s) => SIGNATURE.test(s));
  let match = false;
  for (const candidate of candidates) {
    // Same length by the pattern; every candidate is compared, so the time says nothing of which matched.
    if (timingSafeEqual(Buffer.from(candidate, 'latin1'), expected)) match = true;
  }
  return match ? { ok: true } : { ok: false, reason: 'signature does not match' };
}

/** Checks timestamp freshness and that one `v1a` signature is by one of the trusted `whpk_` keys. */
export function verifyEd25519(
  publicKeys: readonly string[],
  headers: { id?: string; timestamp?: string; signature?: string },
  rawBody: Buffer,
  nowSeconds: number,
): Verification {
  const { id, timestamp, signature } = headers;
  if (!timestamp || !TIMESTAMP.test(timestamp)) return { ok: false, reason: 'missing or malformed webhook-timestamp' };
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp outside the 300 s tolerance' };
  if (!id || id.includes('.')) return { ok: false, reason: 'missing or malformed webhook-id' };
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]);
  // whpk_ + standard base64 of the 32 raw key bytes; node:crypto reads them as a JWK's base64url `x`.
  const keys = publicKeys.map((k) =>
    createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(k.replace(/^whpk_/, ''), 'base64').toString('base64url') },
      format: 'jwk',
    }),
  );
  const match = (signature ?? '')
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => keys.some((key) => verify(null, signed, key, Buffer.from(s.slice('v1a,'.length), 'base64'))));
  return match ? { ok: true } : { ok: false, reason: 'no v1a signature by a trusted key' };
}

/**
 * Remembers event ids for a day. In production keep them in your database (a unique key on
 * event_id) so duplicates are caught across restarts and across several receiver instances.
 */
export function memoryDeduplicator(ttlMs = 24 * 60 * 60 * 1000) {
  const seen = new Map<string, number>();
  return {
    /** True the first time an id is offered, false for a duplicate. */
    firstTime(eventId: string, now = Date.now()): boolean {
      for (const [id, at] of seen) {
        if (now - at <= ttlMs) break;
        seen.delete(id);
      }
      if (seen.has(eventId)) return false;
      seen.set(eventId, now);
      return true;
    },
  };
}

/**
 * Keeps, per subject, the highest sequence applied. In production keep it in the table that holds
 * the state you apply, compared and updated in the same transaction as the state itself.
 */
export function memorySubjectLedger() {
  const newest = new Map<string, number>();
  return {
    /**
     * True when the event is newer than every event of its subject offered before (it is then
     * recorded as the newest); false for an older or repeated one, which you drop. An envelope
     * without the fields (delivered before events were numbered) is applied.
     */
    offer(event: Pick<WebhookEvent, 'sequence' | 'subject'>): boolean {
      if (event.subject === undefined || event.sequence === undefined) return true;
      const applied = newest.get(event.subject);
      if (applied !== undefined && applied >= event.sequence) return false;
      newest.set(event.subject, event.sequence);
      return true;
    },
  };
}

function readRaw(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface ReceiverOptions {
  /** The whsec_… secret: checks X-Service-Signature. */
  secret?: string;
  /** The whpk_… keys: checks the Ed25519 (`v1a`) signature too. At least one of the two. */
  publicKeys?: readonly string[];
  /** Called after the answer is sent, once per event_id, and only for an event newer than those of its subject before it. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  now?: () => number;
  dedupe?: ReturnType<typeof memoryDeduplicator>;
  ledger?: ReturnType<typeof memorySubjectLedger>;
}

/** An HTTP server that accepts signed deliveries on any path (listen on it yourself). */
export function createReceiver(options: ReceiverOptions): Server {
  const now = options.now ?? Date.now;
  const dedupe = options.dedupe ?? memoryDeduplicator();
  const ledger = options.ledger ?? memorySubjectLedger();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const answer = (status: number, text = '') => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(text);
    if (req.method !== 'POST') return answer(405, 'POST only');
    const raw = await readRaw(req);
    if (raw === null) return answer(413, 'body too large');
    const seconds = Math.floor(now() / 1000);
    const header = (name: string) => req.headers[name] as string | undefined;
    const checks = [
      ...(options.secret !== undefined
        ? [verifyDelivery(options.secret, header('x-service-timestamp'), header('x-service-signature'), raw, seconds)]
        : []),
      ...(options.publicKeys?.length
        ? [
            verifyEd25519(
              options.publicKeys,
              { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') },
              raw,
              seconds,
            ),
          ]
        : []),
    ];
    if (checks.length === 0) return answer(500, 'the receiver has neither a secret nor public keys');
    const failed = checks.find((c) => !c.ok);
    if (failed && !failed.ok) return answer(401, failed.reason);
    let event: WebhookEvent;
    try {
      event = JSON.parse(raw.toString('utf8')) as WebhookEvent;
    } catch {
      return answer(400, 'body is not JSON');
    }
    if (!dedupe.firstTime(event.event_id, now())) return answer(200, 'duplicate, already accepted');
    if (!ledger.offer(event)) return answer(200, 'stale, a newer state of this subject was already accepted');
    answer(202, 'accepted');
    // Process after answering; a slow handler must not turn into a timeout and a retry.
    setImmediate(() => {
      Promise.resolve(options.onEvent(event)).catch((err) => console.error(`event ${event.event_id} failed:`, err));
    });
  };
  // A request that breaks off while its body is read is answered 500 (if it still can be), not left to crash the receiver.
  return createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error('request failed:', err);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('internal error');
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secret = process.env.WEBHOOK_SECRET || undefined;
  const publicKeys = (process.env.WEBHOOK_PUBLIC_KEYS ?? '').split(/[ ,]+/).filter((k) => k !== '');
  if (!secret && publicKeys.length === 0) {
    console.error(
      'set WEBHOOK_SECRET to the secret the operator gave you (whsec_…), or WEBHOOK_PUBLIC_KEYS to the webhook_public_keys ' +
        'of GET /api/v2/partners/me (whpk_…), or both',
    );
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8787);
  const server = createReceiver({
    secret,
    publicKeys,
    onEvent: (e) =>
      console.log(
        `${e.occurred_at} #${e.sequence ?? '-'} ${e.event_type} ${e.event_id} subject=${e.subject ?? '-'} crew=${typeof e.data.crew_unique_id === 'string' ? e.data.crew_unique_id : '-'}`,
      ),
  });
  // Loopback only: put a TLS-terminating proxy in front of it to take deliveries from the service.
  server.listen(port, '127.0.0.1', () => {
    const bound = server.address() as { address: string; port: number };
    console.log(`webhook receiver listening on http://${bound.address}:${bound.port}/`);
  });
}
