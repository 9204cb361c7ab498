import { setTimeout as delay } from 'node:timers/promises';
import { checkAgainstOpenApi } from './openapi-check.ts';

/** One answer of the server under test, and how long it took. */
export interface Probe {
  status: number;
  headers: Headers;
  json: any;
  ms: number;
}

/**
 * A GET that must answer within `limitMs` (a hang fails the test instead of stalling it) with a
 * response the OpenAPI document describes.
 */
export async function probe(base: string, path: string, key?: string, limitMs = 10_000): Promise<Probe> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(limitMs),
  }).catch((err: Error) => {
    throw new Error(`GET ${path} did not answer within ${limitMs} ms (${err.message})`, { cause: err });
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json') && text ? JSON.parse(text) : undefined;
  checkAgainstOpenApi({ method: 'GET', path, status: res.status, headers: res.headers, body: json });
  return { status: res.status, headers: res.headers, json, ms: performance.now() - started };
}

/** Polls `check` every 50 ms until it returns true; fails after `limitMs`, saying what was awaited. */
export async function eventually(what: string, check: () => Promise<boolean>, limitMs = 10_000): Promise<void> {
  const until = performance.now() + limitMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > until) throw new Error(`not within ${limitMs} ms: ${what}`);
    await delay(50);
  }
}
