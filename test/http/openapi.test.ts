import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { routeDeps } from '../../src/http/app.ts';
import type { AppState } from '../../src/http/app-deps.ts';
import { pathTemplate } from '../../src/openapi/operation.ts';
import { routeModules } from '../../src/http/routes/index.ts';
import { apiDocument } from '../../src/http/routes/index.ts';
import { compileEveryResponseSchema } from '../support/openapi-check.ts';
import { startWorld } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/** "GET /path/{param}" for every route the app mounts (HEAD, added by the router for GET, left out). */
function appOperations(): string[] {
  const router = new Router<AppState>();
  const deps = routeDeps({ db: {} as never, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) });
  for (const m of routeModules) m.register(router, deps);
  return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${pathTemplate(String(layer.path))}`)).sort();
}

function documentedOperations(doc: Record<string, any>): string[] {
  return Object.entries<Record<string, unknown>>(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).filter((k) => k !== 'parameters').map((m) => `${m.toUpperCase()} ${path}`)).sort();
}

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1, version 0.1.0', async () => {
    const doc = apiDocument();
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    assert.equal(res.valid, true, JSON.stringify(res.errors, null, 2));
    assert.equal(validator.version, '3.1');
    assert.equal((doc.info as any).version, '0.1.0');
    // The validator does catch a broken document (a response without its required description).
    const broken = structuredClone(doc) as any;
    delete broken.paths['/api/v2/partners/me'].get.responses['200'].description;
    assert.equal((await new Validator().validate(broken)).valid, false);
  });

  it('describes exactly the routes the app serves', () => {
    assert.deepEqual(documentedOperations(apiDocument()), appOperations());
  });

  it('every JSON response schema compiles, every $ref resolving', () => {
    assert.ok(compileEveryResponseSchema() > 20);
  });

  it('every operation documents its errors and every path parameter', () => {
    for (const [path, item] of Object.entries<Record<string, any>>(apiDocument().paths as any)) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries<any>(item)) {
        assert.ok(op.responses['500'], `${method} ${path}: 500`);
        const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        assert.deepEqual(declared.sort(), [...params].sort(), `${method} ${path}: path parameters`);
        if (op.security?.length) assert.ok(op.responses['401'], `${method} ${path}: 401`);
      }
    }
  });
});

describeEachStore('GET /openapi.json', ({ store }) => {
  it('serves the document without a key', async () => {
    const w = await startWorld(store().db);
    try {
      const res = await w.api.get('/openapi.json');
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, JSON.parse(JSON.stringify(apiDocument())));
    } finally {
      await w.close();
    }
  });
});
