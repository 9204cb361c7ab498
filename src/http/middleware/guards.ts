import type { Middleware } from 'koa';
import type { AppState, RouteDeps } from '../app-deps.ts';
import { authenticatePartner, requireOperator } from './auth.ts';
import { rateLimit } from './rate-limit.ts';

/**
 * The middleware every partner route starts with: authenticate (live/test key), then count the
 * call against the partner's rate limit. Spread it into a route: `router.get(path, ...partnerGuards(deps), handler)`.
 */
export function partnerGuards(deps: RouteDeps): Middleware<AppState>[] {
  return [authenticatePartner(deps), rateLimit(deps)];
}

/** The same for admin routes: an operator key only (partner key → 403), then the rate limit. */
export function operatorGuards(deps: RouteDeps): Middleware<AppState>[] {
  return [requireOperator(deps), rateLimit(deps)];
}
