import { createHash } from 'node:crypto';
import { utcDate } from '../domain/document.ts';
import type { AppContext, RouteDeps } from './app-deps.ts';
import { baseUrl, partnerOf } from './request-context.ts';

/** Bumped when a body's format changes, so tags of the old format never match. */
const TAG_FORMAT = 'v1';

/** How a GET of the partner API gets its ETag: from the store's data version, from its body, or none. */
export type EtagSource = 'data' | 'body' | false;

function tag(kind: string, ...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\n');
  return `"${kind}${h.digest('base64url').slice(0, 27)}"`;
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
  if (ctx.status !== 200 || body === undefined || body === null || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return undefined;
  const bytes = Buffer.from(JSON.stringify(body));
  ctx.type = 'application/json';
  ctx.body = bytes;
  return bytes;
}

/**
 * Runs a GET handler with a strong ETag and If-None-Match (docs/api.md, "Conditional requests").
 * `data`: the tag is computed before the handler from the store's data version (one cheap query,
 * shared by concurrent calls) and everything else the body depends on: route, path and query,
 * partner, key mode and scopes, today's date (expiring counts), the public origin (links); a match
 * answers 304 without running the handler, and an answer already built for the tag is sent from
 * the body cache (src/http/body-cache.ts) without running it either. When the store cannot give a
 * safe version, and for `body`: the handler runs and the tag is a hash of the JSON it produced; a
 * match answers 304 without sending it. Errors carry no tag and are never cached.
 */
export async function answerConditionally(
  ctx: AppContext, deps: RouteDeps, routePath: string, source: EtagSource, handle: () => Promise<void>,
): Promise<void> {
  if (source === false) return handle();
  const asked = ctx.get('If-None-Match');
  if (source === 'data') {
    const version = await deps.dataVersion();
    if (version !== null) {
      const p = partnerOf(ctx);
      const etag = tag('d', TAG_FORMAT, routePath, ctx.url, p.partner.partnerId, p.mode, [...p.scopes].sort().join(' '),
        utcDate(deps.clock()), baseUrl(ctx, deps.config), version);
      if (asked && noneMatchHits(asked, etag)) {
        ctx.set('ETag', etag);
        ctx.status = 304;
        return;
      }
      const held = deps.bodyCache?.get(version, etag);
      if (held) {
        ctx.status = 200;
        ctx.type = 'application/json';
        ctx.body = held;
      } else {
        await handle();
        const bytes = jsonBytes(ctx);
        if (bytes) deps.bodyCache?.set(version, etag, bytes);
      }
      if (ctx.status === 200) ctx.set('ETag', etag);
      return;
    }
  }
  await handle();
  const bytes = jsonBytes(ctx);
  if (!bytes) return;
  const etag = tag('b', TAG_FORMAT, bytes);
  ctx.set('ETag', etag);
  if (asked && noneMatchHits(asked, etag)) ctx.status = 304;
}
