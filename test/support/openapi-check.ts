import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { apiDocument } from '../../src/http/routes/index.ts';

type Json = Record<string, any>;

const DOC_ID = 'https://svc.invalid/openapi.json';

/**
 * Tests are stricter than the published document: every object schema that lists properties and
 * says nothing about others forbids them here, so a response leaking an undocumented field fails.
 */
function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, strict(v)]));
  if (out.properties && typeof out.properties === 'object' && out.type === 'object' && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

const document: Json = apiDocument();
const ajv = new Ajv2020.default({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...(strict(document) as Json), $id: DOC_ID });

const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(parts: string[]) {
  const key = pointer(parts);
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#/${key}` });
    compiled.set(key, v);
  }
  return v;
}

const templates = Object.keys(document.paths).map((t) => ({
  template: t,
  regex: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The document's path template for a concrete path, if any. */
export function templateOf(path: string): string | undefined {
  return templates.find((t) => t.regex.test(path))?.template;
}

export let responsesChecked = 0;

export interface CheckedResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

function checkBody(parts: string[], body: unknown, what: string): void {
  const v = validatorFor(parts);
  if (!v(body))
    assert.fail(`${what} does not match the OpenAPI document: ${ajv.errorsText(v.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
}

/**
 * Asserts that a response is one the OpenAPI document describes: a documented status of the
 * operation, a documented content type, a body matching the schema, X-Request-Id always, and the
 * rate limit headers wherever a success response documents them. Unknown paths and methods must
 * be the generic 404/405 error the document's description promises.
 */
export function checkAgainstOpenApi(r: CheckedResponse): void {
  const what = `${r.method} ${r.path} → ${r.status}`;
  assert.match(r.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{24}$/, `${what}: X-Request-Id`);
  const template = templateOf(r.path);
  const operation = template ? document.paths[template][r.method.toLowerCase()] : undefined;
  if (!template || !operation) {
    assert.equal(r.status, template ? 405 : 404, `${what}: undocumented path or method`);
    if (template) assert.ok(r.headers.get('allow'), `${what}: Allow header`);
    checkBody(['components', 'schemas', 'Error'], r.body, what);
    responsesChecked++;
    return;
  }
  const response = operation.responses[String(r.status)];
  assert.ok(response, `${what}: status not documented for ${r.method} ${template}`);
  const type = (r.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = response.content ?? {};
  // A response documented without content (304) has no body and no content type.
  if (response.content === undefined) assert.equal(r.body, undefined, `${what}: a body where none is documented`);
  else assert.ok(type in content, `${what}: content type ${type} not documented (${Object.keys(content).join(', ')})`);
  if (type === 'application/json') {
    checkBody(
      ['paths', template, r.method.toLowerCase(), 'responses', String(r.status), 'content', 'application/json', 'schema'],
      r.body,
      what,
    );
  }
  if (r.status < 400) {
    for (const name of Object.keys(response.headers ?? {})) {
      assert.ok(r.headers.get(name) !== null, `${what}: documented header ${name} missing`);
    }
  }
  responsesChecked++;
}

export function openApiDocument(): Json {
  return document;
}

/** Checks a body against a component schema of the document (for responses of test-only routes). */
export function checkComponent(name: string, body: unknown): void {
  checkBody(['components', 'schemas', name], body, `body as ${name}`);
  responsesChecked++;
}

/** What a webhook receiver got: the request headers (any case) and the raw body. */
export interface WebhookDelivery {
  headers: Record<string, string>;
  body: string;
}

/**
 * Asserts that a delivery is one the document's `webhooks` describe: a known event type, every
 * X-Service-* header as its parameters say, and a body matching the event's envelope schema.
 */
export function checkWebhookDelivery(d: WebhookDelivery): void {
  const headers = new Map(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const type = headers.get('x-service-event-type') ?? '';
  const operation = document.webhooks[type]?.post;
  assert.ok(operation, `webhook type ${JSON.stringify(type)} is not in the document`);
  for (const p of operation.parameters as Json[]) {
    const value = headers.get(String(p.name).toLowerCase());
    assert.ok(value !== undefined || !p.required, `${type}: header ${p.name} missing`);
    if (value === undefined) continue;
    const v = ajv.compile(p.schema);
    if (!v(value)) assert.fail(`${type}: header ${p.name}: ${JSON.stringify(value)} ${ajv.errorsText(v.errors)}`);
  }
  assert.equal((headers.get('content-type') ?? '').split(';')[0], 'application/json', `${type}: content type`);
  checkWebhookBody(type, JSON.parse(d.body));
}

/** Asserts that an event envelope (a delivery body, an outbox row) matches its type's webhook schema. */
export function checkWebhookBody(type: string, body: unknown): void {
  assert.ok(document.webhooks[type]?.post, `webhook type ${JSON.stringify(type)} is not in the document`);
  checkBody(['webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema'], body, `${type} event`);
  responsesChecked++;
}

/** Compiles the schema of every documented JSON response, so a dangling $ref fails a test. */
export function compileEveryResponseSchema(): number {
  let n = 0;
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        if (response.content?.['application/json']) {
          validatorFor(['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']);
          n++;
        }
      }
    }
  }
  return n;
}
