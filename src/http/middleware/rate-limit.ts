import type { Middleware } from 'koa';
import { AppError } from '../../domain/app-error.ts';
import type { AppState, RouteDeps } from '../app-deps.ts';

/**
 * Counts the request against its partner (or operator key) and sets the IETF draft headers on
 * every authenticated response: `RateLimit-Policy: 600;w=60` and
 * `RateLimit: limit=600, remaining=599, reset=42`. Over the limit: 429 rate_limited with
 * Retry-After. Runs after authentication, so unauthenticated calls are not counted.
 */
export function rateLimit(deps: RouteDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const partner = ctx.state.partner?.partner;
    const bucket = partner ? `partner:${partner.partnerId}` : `operator:${ctx.state.operator?.keyId ?? 'unknown'}`;
    const limit = partner?.rateLimit ?? deps.config.rateLimitDefault;
    const d = await deps.rateLimiter.hit(bucket, limit);
    ctx.set('RateLimit-Policy', `${d.limit};w=${d.windowSeconds}`);
    ctx.set('RateLimit', `limit=${d.limit}, remaining=${d.remaining}, reset=${d.resetSeconds}`);
    if (!d.allowed) {
      throw new AppError('rate_limited', `rate limit of ${d.limit} requests per ${d.windowSeconds} s exceeded; retry in ${d.resetSeconds} s`, {
        headers: { 'Retry-After': String(d.resetSeconds) },
      });
    }
    await next();
  };
}
