import type { Middleware } from 'koa';
import { AppError } from '../../domain/app-error.ts';
import type { AppState } from '../app-deps.ts';
import { pathTemplate } from '../../openapi/operation.ts';

interface MatchedLayer {
  path: string;
  methods: string[];
  captures(path: string): string[];
  params(path: string, captures: string[]): Record<string, string>;
}

/**
 * Runs after the router: a path no route knows is 404 `not_found`; a known path asked with a
 * method it does not take is 405 `method_not_allowed` with `Allow` listing the methods it does,
 * audited under the route with the crew member and document its path names.
 */
export function fallback(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const matched = ((ctx as { matched?: MatchedLayer[] }).matched ?? []).filter((l) => l.methods.length > 0);
    if (matched.length === 0) throw new AppError('not_found', `no route ${ctx.path}`);
    const allowed = [...new Set(matched.flatMap((l) => l.methods))];
    const layer = matched[0]!;
    const template = pathTemplate(layer.path);
    ctx.state.audit.route = template;
    // Attributed as a call the route served would be, so an erasure finds the row by its ids.
    const params = layer.params(ctx.path, layer.captures(ctx.path));
    ctx.state.audit.crewUniqueId ??= params.crew_unique_id ?? null;
    ctx.state.audit.documentId ??= params.document_id ?? null;
    // A file link's token is a credential: it stays out of the audit row and the log here too.
    if (template.includes('{token}')) ctx.state.audit.path = template;
    throw new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; use ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  };
}
