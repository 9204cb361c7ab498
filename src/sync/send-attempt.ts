import type { Clock } from '../domain/clock.ts';
import { destinationProblem, type Resolver } from '../services/webhooks/destination.ts';
import { parseRetryAfter, type AttemptResult } from './failure-policy.ts';

/** What one attempt needs from outside: HTTP, DNS, time and the operator's policy. */
export interface AttemptTransport {
  fetch: typeof fetch;
  resolve: Resolver;
  clock: Clock;
  timeoutMs: number;
  allowInsecure: boolean;
  /** Aborted when a stopping run gives up its attempts in flight (the grace period is over). */
  cancel?: AbortSignal;
}

const RESPONSE_BODY_LIMIT = 2048;

/** Reads at most `limit` bytes of a response body, then lets go of the rest. */
async function readPrefix(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  // A fetch body is a stream of bytes (the Fetch standard); Node's types leave its chunks any.
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  // Postgres text cannot hold NUL; a receiver's binary answer is kept as readable as it gets.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit)).replaceAll('\u0000', '');
}

function describeError(err: unknown, transport: AttemptTransport): string {
  const thrown = err as Error & { cause?: { code?: string; message?: string } };
  if (transport.cancel?.aborted && !(thrown?.name === 'TimeoutError')) return 'cancelled: the run was stopped';
  if (thrown?.name === 'TimeoutError' || thrown?.name === 'AbortError') return `timeout after ${transport.timeoutMs} ms`;
  if (thrown?.cause?.message) return thrown.cause.message;
  return thrown?.message ?? String(err);
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Every abort here gives an Error: src/cli/stop-signals.ts, or AbortSignal.timeout's DOMException.
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * One POST of a signed body: checks the destination after DNS resolution, never follows a
 * redirect, gives up after `timeoutMs` (DNS, connect, response and the body prefix together).
 * Never throws: every outcome comes back as an AttemptResult.
 */
export async function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  transport: AttemptTransport,
): Promise<AttemptResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const timeout = AbortSignal.timeout(transport.timeoutMs);
  const signal = transport.cancel ? AbortSignal.any([timeout, transport.cancel]) : timeout;
  const failed = (error: string, refused = false): AttemptResult => ({
    statusCode: null,
    error,
    responseBody: null,
    latencyMs: latency(),
    retryAfterMs: null,
    refused,
  });

  try {
    const problem = await raceSignal(
      destinationProblem(new URL(url), { allowInsecure: transport.allowInsecure }, transport.resolve),
      signal,
    );
    if (problem) return failed(`destination refused: ${problem}`, true);
  } catch (err) {
    return failed(`cannot resolve destination: ${describeError(err, transport)}`);
  }

  let res: Response;
  try {
    res = await transport.fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
  } catch (err) {
    return failed(describeError(err, transport));
  }
  let responseBody: string | null = null;
  let error: string | null = null;
  try {
    responseBody = await readPrefix(res, RESPONSE_BODY_LIMIT);
  } catch (err) {
    error = `response body: ${describeError(err, transport)}`;
  }
  return {
    statusCode: res.status,
    error,
    responseBody,
    latencyMs: latency(),
    retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), transport.clock()),
    refused: false,
  };
}
