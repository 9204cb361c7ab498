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
    const decision = await deps.rateLimiter.hit(bucket, limit);
    ctx.set('RateLimit-Policy', `${decision.limit};w=${decision.windowSeconds}`);
    ctx.set('RateLimit', `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.resetSeconds}`);
    if (!decision.allowed) {
      const message = `rate limit of ${decision.limit} requests per ${decision.windowSeconds} s exceeded; retry in ${decision.resetSeconds} s`;
      throw new AppError('rate_limited', message, {
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
    await next();
  };
}
