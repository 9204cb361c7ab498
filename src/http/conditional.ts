import { createHash } from 'node:crypto';
import { utcDate } from '../domain/document.ts';
import { dataVersion } from '../services/data-version.ts';
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

/**
 * Runs a GET handler with a strong ETag and If-None-Match (docs/api.md, "Conditional requests").
 * `data`: the tag is computed before the handler from the store's data version (one cheap query)
 * and everything else the body depends on: route, path and query, partner, key mode and scopes,
 * today's date (expiring counts), the public origin (links); a match answers 304 without running
 * the handler. When the store cannot give a safe version, and for `body`: the handler runs and the
 * tag is a hash of the JSON it produced; a match answers 304 without sending it. Errors carry no tag.
 */
export async function answerConditionally(
  ctx: AppContext, deps: RouteDeps, routePath: string, source: EtagSource, handle: () => Promise<void>,
): Promise<void> {
  if (source === false) return handle();
  const asked = ctx.get('If-None-Match');
  if (source === 'data') {
    const version = await dataVersion(deps.db);
    if (version !== null) {
      const p = partnerOf(ctx);
      const etag = tag('d', TAG_FORMAT, routePath, ctx.url, p.partner.partnerId, p.mode, [...p.scopes].sort().join(' '),
        utcDate(deps.clock()), baseUrl(ctx, deps.config), version);
      if (asked && noneMatchHits(asked, etag)) {
        ctx.set('ETag', etag);
        ctx.status = 304;
        return;
      }
      await handle();
      if (ctx.status === 200) ctx.set('ETag', etag);
      return;
    }
  }
  await handle();
  if (ctx.status !== 200 || ctx.body === undefined || ctx.body === null || Buffer.isBuffer(ctx.body) || typeof (ctx.body as { pipe?: unknown }).pipe === 'function') return;
  const bytes = Buffer.from(JSON.stringify(ctx.body));
  ctx.type = 'application/json';
  ctx.body = bytes;
  const etag = tag('b', TAG_FORMAT, bytes);
  ctx.set('ETag', etag);
  if (asked && noneMatchHits(asked, etag)) ctx.status = 304;
}
