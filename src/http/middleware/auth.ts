import type { Middleware, ParameterizedContext } from 'koa';
import { AppError } from '../../domain/app-error.ts';
import { invalidKey } from '../../services/authenticate.ts';
import type { AppState, RouteDeps } from '../app-deps.ts';

/**
 * The key a request presents: `Authorization: Bearer <key>` wins over `X-Partner-API-Key`
 * (docs/decisions.md §2). An Authorization header of another scheme is refused rather than ignored.
 */
export function presentedKey(ctx: ParameterizedContext): string | undefined {
  const authorization = ctx.get('Authorization').trim();
  if (authorization !== '') {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (match) return match[1];
    if (ctx.get('X-Partner-API-Key') === '') throw invalidKey('the Authorization header must use the Bearer scheme', true);
  }
  const header = ctx.get('X-Partner-API-Key').trim();
  return header === '' ? undefined : header;
}

/** Partner routes: a live or test key; sets `ctx.state.partner` and the audit's partner and key. */
export function authenticatePartner(deps: RouteDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const caller = await deps.authenticator.authenticate(presentedKey(ctx));
    if (caller.kind !== 'partner') {
      ctx.state.audit.keyId = caller.keyId;
      throw invalidKey('operator keys are accepted by the admin routes only; use a partner key (svc_live_ or svc_test_)', true);
    }
    ctx.state.partner = caller.partner;
    ctx.state.audit.partnerId = caller.partner.partner.partnerId;
    ctx.state.audit.keyId = caller.partner.keyId;
    await next();
  };
}

/** 403 insufficient_scope for a call that needs an operator key (of no partner, where the route says so). */
export function operatorScopeError(message: string): AppError {
  return new AppError('insufficient_scope', message, {
    extra: { required_scope: 'operator' },
    headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="operator"' },
  });
}

/**
 * Admin routes: an operator key (`svc_op_`) only. A valid partner key is 403 insufficient_scope,
 * anything else 401. An operator key tied to a partner gets 403 insufficient_scope on a path
 * naming another partner. The audit row names the operator key and the partner of the path.
 */
export function requireOperator(deps: RouteDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const caller = await deps.authenticator.authenticate(presentedKey(ctx));
    const pathPartner = (ctx as { params?: Record<string, string> }).params?.partner_id;
    if (caller.kind === 'partner') {
      ctx.state.audit.partnerId = caller.partner.partner.partnerId;
      ctx.state.audit.keyId = caller.partner.keyId;
      throw operatorScopeError('admin routes need an operator key (svc_op_…)');
    }
    ctx.state.operator = { keyId: caller.keyId, partnerId: caller.partnerId };
    ctx.state.audit.keyId = caller.keyId;
    ctx.state.audit.partnerId = pathPartner ?? caller.partnerId;
    // An operator key tied to a partner acts on that partner only (docs/decisions.md).
    if (caller.partnerId !== null && pathPartner !== undefined && pathPartner !== caller.partnerId) {
      throw operatorScopeError(`this operator key is tied to partner ${caller.partnerId} and acts on that partner only`);
    }
    await next();
  };
}
