import type { Middleware } from 'koa';
import type { AppState } from '../app-deps.ts';

/** Headers of every /api/v2 response, errors included (docs/api.md, "Caching and headers"). */
export const API_RESPONSE_HEADERS = {
  // Answers hold personal data: no shared or private cache keeps them. Routes that serve files
  // set their own value (`private, no-store`).
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

const API_PATH = /^\/api\/v2(?:\/|$)/i;

/** Sets API_RESPONSE_HEADERS before the route runs, so that every answer, an error too, has them. */
export function apiHeaders(): Middleware<AppState> {
  return (ctx, next) => {
    if (API_PATH.test(ctx.path)) ctx.set(API_RESPONSE_HEADERS);
    return next();
  };
}
