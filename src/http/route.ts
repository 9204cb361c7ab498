import type { FieldSpecs, ParsedFields } from '../domain/fields.ts';
import type { ValidationIssue } from '../domain/validation-issues.ts';
import { isConditional, type BodyDeclaration, type OperationDeclaration } from '../openapi/operation.ts';
import { requireScopes } from '../services/visibility/access.ts';
import type { AppContext, AppMiddleware, AppRouter, RouteDeps, RouteModule } from './app-deps.ts';
import { answerConditionally, type EtagSource } from './conditional.ts';
import { operatorGuards, partnerGuards } from './middleware/guards.ts';
import { partnerOf } from './request-context.ts';
import { parseJsonBody, readJsonBody } from './validation/body.ts';
import { throwValidation } from './validation/issues.ts';
import { readFields } from '../domain/fields.ts';
import { queryValues } from './validation/query.ts';

/** What a handler receives: the query and body as the declaration parsed them. */
export interface RouteInput<Q extends FieldSpecs, B extends BodyDeclaration | undefined> {
  query: ParsedFields<Q>;
  body: B extends { fields: infer S extends FieldSpecs } ? ParsedFields<S> : unknown;
}

/**
 * One route: its declaration (also the source of its OpenAPI operation) and its handler. Before
 * the handler runs, the declaration is enforced in this order: the key (partner or operator) and
 * the rate limit, the scopes, then the query and body, every field issue in one 422.
 */
export interface Route<
  Q extends FieldSpecs = FieldSpecs,
  B extends BodyDeclaration | undefined = BodyDeclaration | undefined,
> extends OperationDeclaration {
  query?: Q;
  body?: B;
  /**
   * Checks of the query that need the request (a cursor bound to the partner), reported in the same
   * 422 as the fields; a field that failed is undefined here.
   */
  checkQuery?(ctx: AppContext, query: ParsedFields<Q>, deps: RouteDeps): Promise<ValidationIssue[]>;
  handle(ctx: AppContext, input: RouteInput<Q, B>, deps: RouteDeps): Promise<void>;
}

/** Declares a route; the identity, for type inference of its query and body. */
export function route<const Q extends FieldSpecs = Record<never, never>, const B extends BodyDeclaration | undefined = undefined>(
  declared: Route<Q, B>,
): Route<Q, B> {
  return declared;
}

function guards(route: Route, deps: RouteDeps): AppMiddleware[] {
  if (route.access === 'public') return [];
  if (route.access === 'operator') return operatorGuards(deps);
  const scopes = route.scopes;
  if (!scopes) return partnerGuards(deps);
  return [
    ...partnerGuards(deps),
    (ctx, next) => {
      requireScopes(partnerOf(ctx), scopes);
      return next();
    },
  ];
}

async function readInput(ctx: AppContext, route: Route, deps: RouteDeps): Promise<RouteInput<FieldSpecs, BodyDeclaration | undefined>> {
  const { value: query, issues } = readFields(queryValues(ctx), route.query ?? {}, 'query', null);
  if (route.checkQuery) issues.push(...(await route.checkQuery(ctx, query, deps)));
  if (issues.length > 0) throwValidation(issues);
  if (!route.body || 'readBy' in route.body) return { query, body: undefined };
  return { query, body: 'fields' in route.body ? await parseJsonBody(ctx, route.body.fields) : await readJsonBody(ctx) };
}

function mount(router: AppRouter, deps: RouteDeps, route: Route): void {
  const etag: EtagSource = isConditional(route) ? (route.etag ?? 'body') : false;
  router[route.method](route.path, ...guards(route, deps), async (ctx) => {
    const input = await readInput(ctx, route, deps);
    await answerConditionally(ctx, deps, route.path, etag, () => route.handle(ctx, input, deps));
  });
}

/** A module of declared routes, mounted in order. */
export function routeModule(name: string, routes: readonly Route[]): RouteModule {
  return { name, routes, register: (router, deps) => routes.forEach((route) => mount(router, deps, route)) };
}
