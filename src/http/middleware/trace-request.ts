import type { Middleware } from 'koa';
import type { Spans } from '../../services/plumbing/spans.ts';
import type { AppState } from '../app-deps.ts';

/**
 * Names the request on its span (the HTTP server span instrumentation-http opened, when tracing is
 * on): the request id, and the partner once authentication has said which. Never the key, the path
 * or anything of the answer (docs/operations.md, "Traces").
 */
export function traceRequest(spans: Spans): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      spans.annotate({ 'svc.request_id': ctx.state.requestId, 'svc.partner_id': ctx.state.audit.partnerId });
    }
  };
}
