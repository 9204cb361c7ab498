import type { Middleware } from 'koa';
import { pathTemplate } from '../../openapi/operation.ts';
import type { AppState, HttpMetrics } from '../app-deps.ts';

/**
 * Tells monitoring about every request once its status is final: by route template (never the
 * path, which holds ids and file-link tokens), method and status; 429s and store failures apart.
 */
export function observeRequests(metrics: HttpMetrics): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = ctx.state.audit?.route ?? (typeof matched === 'string' ? pathTemplate(matched) : 'unmatched');
      metrics.request({ method: ctx.method, route, status: ctx.status, seconds: (performance.now() - started) / 1000 });
      if (ctx.state.failure?.code === 'rate_limited') metrics.rateLimited();
      if (ctx.state.failure?.fromStore) metrics.storeError();
    }
  };
}
