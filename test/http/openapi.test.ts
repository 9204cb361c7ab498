import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { routeDeps } from '../../src/http/app.ts';
import type { AppState } from '../../src/http/app-deps.ts';
import { pathTemplate } from '../../src/openapi/operation.ts';
import { routeModules } from '../../src/http/routes/index.ts';
import { apiDocument, servedDocument } from '../../src/http/routes/index.ts';
import { compileEveryResponseSchema } from '../support/openapi-check.ts';
import { startWorld } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/** "GET /path/{param}" for every route the app mounts (HEAD, added by the router for GET, left out). */
function appOperations(): string[] {
  const router = new Router<AppState>();
  const deps = routeDeps({ db: {} as never, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) });
  for (const m of routeModules) m.register(router, deps);
  return router.stack
    .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${pathTemplate(String(layer.path))}`))
    .sort();
}

function documentedOperations(doc: Record<string, any>): string[] {
  return Object.entries<Record<string, unknown>>(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => k !== 'parameters')
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
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
        assert.ok(op.responses['431'], `${method} ${path}: 431, answered by the HTTP server on every path`);
        const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        assert.deepEqual(declared.sort(), [...params].sort(), `${method} ${path}: path parameters`);
        if (op.security?.length) assert.ok(op.responses['401'], `${method} ${path}: 401`);
      }
    }
  });
});

/**
 * Compiles every schema of an OpenAPI 3.1 document with Ajv in strict mode (unknown keywords,
 * `format` without its `type`, union types: all errors), the keywords the OAS dialect adds to
 * JSON Schema known as annotations; returns how many were compiled.
 */
function compileStrictly(doc: Record<string, any>): number {
  const id = 'https://svc.invalid/served-openapi.json';
  const ajv = new Ajv2020.default({ strict: true });
  addFormats.default(ajv);
  ajv.addVocabulary(['discriminator', 'example', 'externalDocs', 'xml']);
  // The document is the root the references resolve in: its own fields are not schema keywords.
  ajv.addVocabulary(['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags']);
  ajv.addSchema({ ...doc, $id: id });
  const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  let compiled = 0;
  const compile = (parts: string[]) => {
    assert.doesNotThrow(() => ajv.compile({ $ref: `${id}#/${pointer(parts)}` }), `#/${parts.join('/')}`);
    compiled++;
  };
  // Every schema under paths and webhooks (parameters, bodies, responses, their headers), then the components.
  const walk = (node: unknown, parts: string[]): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' && value && typeof value === 'object') compile([...parts, key]);
      else walk(value, [...parts, key]);
    }
  };
  walk(doc.paths, ['paths']);
  walk(doc.webhooks, ['webhooks']);
  walk(doc.components.headers, ['components', 'headers']);
  for (const name of Object.keys(doc.components.schemas)) compile(['components', 'schemas', name]);
  return compiled;
}

describeEachStore('GET /openapi.json', ({ store }) => {
  it("the served document compiles in Ajv's strict mode and names no jsonSchemaDialect", async () => {
    const w = await startWorld(store().db);
    try {
      const doc = (await w.api.get('/openapi.json')).json;
      const operators = (await w.api.get('/api/v2/admin/openapi.json', { key: w.keys.operator })).json;
      // The default dialect is the OAS one already; naming it made Prism skip every body check.
      assert.equal(doc.jsonSchemaDialect, undefined);
      const counts = [compileStrictly(doc), compileStrictly(operators)];
      assert.ok(counts[0]! > 200 && counts[1]! > 100, String(counts));
    } finally {
      await w.close();
    }
  });

  it('serves partners a document without operator routes or page assets, and operators theirs with their key', async () => {
    const w = await startWorld(store().db);
    try {
      const partner = (await w.api.get('/openapi.json')).json;
      const paths = Object.keys(partner.paths);
      assert.ok(paths.includes('/api/v2/employers/me/fleet'));
      assert.deepEqual(
        paths.filter((p) => p.startsWith('/api/v2/admin') || p.startsWith('/docs') || p.startsWith('/_internal')),
        [],
      );
      assert.deepEqual(Object.keys(partner.components.securitySchemes).sort(), ['partnerApiKey', 'partnerBearer']);
      // The origin partners call, not "/": a generated client needs it.
      assert.deepEqual(partner.servers, [{ url: w.api.url, description: 'this service' }]);
      // tier is null for external partners: a generated client must allow it.
      assert.deepEqual(partner.components.schemas.PartnerMe.properties.tier.oneOf[1], { type: 'null' });

      assert.equal((await w.api.get('/api/v2/admin/openapi.json')).status, 401);
      assert.equal((await w.api.get('/api/v2/admin/openapi.json', { key: w.keys.full })).status, 403);
      const operators = await w.api.get('/api/v2/admin/openapi.json', { key: w.keys.operator });
      assert.equal(operators.status, 200);
      const operatorPaths = Object.keys(operators.json.paths);
      assert.ok(operatorPaths.includes('/api/v2/admin/changes'));
      assert.ok(
        operatorPaths.every((p) => p.startsWith('/api/v2/admin') || p === '/_internal/health'),
        operatorPaths.join(),
      );
      assert.equal(operators.json.webhooks, undefined);
    } finally {
      await w.close();
    }
  });

  it('serves the document without a key', async () => {
    const w = await startWorld(store().db);
    try {
      const res = await w.api.get('/openapi.json');
      assert.equal(res.status, 200);
      const served = JSON.parse(JSON.stringify(servedDocument('partner', w.api.url))) as Record<string, unknown>;
      assert.deepEqual(res.json, { ...served, servers: [{ url: w.api.url, description: 'this service' }] });
    } finally {
      await w.close();
    }
  });
});
