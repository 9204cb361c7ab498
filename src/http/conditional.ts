import { createHash } from 'node:crypto';
import { utcDate } from '../domain/clock.ts';
import type { HeldAnswer } from '../services/read-cache/body-cache.ts';
import type { AppContext, RouteDeps } from './app-deps.ts';
import { baseUrl, partnerOf } from './request-context.ts';

/** Bumped when a body's format changes, so tags of the old format never match. */
const TAG_FORMAT = 'v1';

/** How a GET of the partner API gets its ETag: from the store's data version, from its body, or none. */
export type EtagSource = 'data' | 'body' | false;

function tag(kind: string, ...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\n');
  return `"${kind}${hash.digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match matches `etag` (weak comparison, as RFC 9110 prescribes for it; `*` matches any). */
export function noneMatchHits(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => opaque(t) === opaque(etag));
}

/** The answer as JSON bytes, unless the handler left none or a body of another kind (a file, a stream). */
function jsonBytes(ctx: AppContext): Buffer | undefined {
  const body: unknown = ctx.body;
  if (
    ctx.status !== 200 ||
    body === undefined ||
    body === null ||
    Buffer.isBuffer(body) ||
    typeof (body as { pipe?: unknown }).pipe === 'function'
  )
    return undefined;
  const bytes = Buffer.from(JSON.stringify(body));
  ctx.type = 'application/json';
  ctx.body = bytes;
  return bytes;
}

/**
 * Runs a GET handler with a strong ETag and If-None-Match (docs/api.md, "Conditional requests").
 * The tag is always a hash of the JSON body served, so it changes when, and only when, what this
 * caller is sent changes: another partner's writes never move it. A 304 answers only a request
 * that would otherwise get 200 (RFC 9110, 13.1.2), `If-None-Match: *` included: after the handler
 * has run its fleet, consent and existence checks, or from an answer built for the same request.
 *
 * `data`: the answer is held by the read cache (src/services/read-cache/read-cache.ts) with its
 * tag, per request (route, path and query, partner, key mode and scopes, today's date, the public
 * origin) for as long as the store's data version holds; a repeat is answered from it (304 or the
 * held bytes) without running the handler. `body`: the handler runs every time. Errors carry no
 * tag and are never cached.
 */
export async function answerConditionally(
  ctx: AppContext,
  deps: RouteDeps,
  routePath: string,
  source: EtagSource,
  handle: () => Promise<void>,
): Promise<void> {
  if (source === false) return handle();
  const build = async (): Promise<HeldAnswer | undefined> => {
    await handle();
    const bytes = jsonBytes(ctx);
    return bytes && { etag: tag('b', TAG_FORMAT, bytes), bytes };
  };
  let answer: HeldAnswer | undefined;
  if (source === 'body') answer = await build();
  else {
    const caller = partnerOf(ctx);
    answer = await deps.readCache.answer(
      {
        route: routePath,
        url: ctx.url,
        partnerId: caller.partner.partnerId,
        mode: caller.mode,
        scopes: [...caller.scopes].sort(),
        today: utcDate(deps.clock()),
        baseUrl: baseUrl(ctx, deps.config),
      },
      build,
    );
  }
  if (answer) send(ctx, answer.etag, ctx.get('If-None-Match'), answer.bytes);
}

/** A 200 answer with its tag, or 304 when If-None-Match matches it. */
function send(ctx: AppContext, etag: string, asked: string, bytes: Buffer): void {
  ctx.set('ETag', etag);
  if (asked && noneMatchHits(asked, etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = bytes;
}
