import type { RouteModule } from './app-deps.ts';
import { routeModule, type Route } from './route.ts';

/**
 * A module of routes whose handlers share what `hold` makes: one per app that mounts the module,
 * made when it does (what it holds is built on first use), so nothing is held at module level.
 * The declarations listed for the OpenAPI document are given a `held` they never call.
 */
export function routeModuleHolding<H>(name: string, hold: () => H, routes: (held: () => H) => readonly Route[]): RouteModule {
  const declaredOnly = (): H => {
    throw new Error(`the ${name} routes listed for the OpenAPI document are not served`);
  };
  return {
    name,
    routes: routes(declaredOnly),
    register: (router, deps) => {
      const held = hold();
      routeModule(
        name,
        routes(() => held),
      ).register(router, deps);
    },
  };
}
