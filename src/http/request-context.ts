import type { Config } from '../config/config.ts';
import { AppError } from '../domain/app-error.ts';
import type { PartnerContext } from '../services/visibility/partner-context.ts';
import type { AppContext, OperatorContext } from './app-deps.ts';

/** The authenticated partner; a route that forgot partnerGuards fails loudly instead of leaking. */
export function partnerOf(ctx: AppContext): PartnerContext {
  if (!ctx.state.partner) throw new AppError('internal_error', 'route reached without partner authentication');
  return ctx.state.partner;
}

export function operatorOf(ctx: AppContext): OperatorContext {
  if (!ctx.state.operator) throw new AppError('internal_error', 'route reached without operator authentication');
  return ctx.state.operator;
}

/**
 * Origin for absolute links: the configured public base URL, else the request's own origin
 * (which honours X-Forwarded-Proto/Host only when the server trusts its proxy).
 */
export function baseUrl(ctx: AppContext, config: Config): string {
  // Koa 3's ctx.origin is the Origin request header, not ours: build it from protocol and host.
  return (config.publicBaseUrl || `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
}

/** A path parameter, always present on a matched route. */
export function pathParam(ctx: AppContext, name: string): string {
  const value = (ctx as { params?: Record<string, string> }).params?.[name];
  if (value === undefined) throw new AppError('internal_error', `route has no path parameter ${name}`);
  // No id holds NUL (and Postgres text cannot): such a path names nothing, and never reaches the store.
  if (value.includes('\u0000')) throw new AppError('not_found', `no ${name} contains a NUL character`);
  return value;
}
