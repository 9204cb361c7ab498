import { HEADERS } from './errors.ts';
import { bodySchemasOf, pathsOf, type OperationDeclaration } from './operation.ts';
import { schemas } from './schemas.ts';
import type { JsonObject } from './types.ts';
import { webhookOperations, webhookSchemas } from './webhooks.ts';

const DESCRIPTION = `Read-only partner API over crew, vessel, document and compliance data.

Authentication: a partner key (\`svc_live_…\` for live data, \`svc_test_…\` for test-flagged data) as \`Authorization: Bearer <key>\`
(over TLS), or in \`X-Partner-API-Key\`; Bearer wins when both are sent.

Every response carries \`X-Request-Id\` (\`req_…\`), the id of the call's audit log row. Authenticated responses carry
\`RateLimit-Policy\` and \`RateLimit\`; a 429 carries \`Retry-After\`.

Errors: 422 bodies are \`{"detail": [{type, loc, msg, input, ctx?}]}\` as FastAPI/pydantic v2 produce them; every other error is
\`{"detail": {"code", "message", ...}}\`. On any path: an unknown path is 404 \`not_found\`; a method a path does not take is 405
\`method_not_allowed\` with an \`Allow\` header; bodies over 64 KiB are 413 \`payload_too_large\`; a body with a content type other
than JSON is 415 \`unsupported_media_type\` (the operators' changes and file uploads state their own bounds and types); an unexpected failure is 500 \`internal_error\` (no details; quote the request id).
A request the server cannot read is answered before any route, in the same shape and with \`X-Request-Id\`: 400 \`bad_request\`
(malformed HTTP), 408 \`request_timeout\` (headers not received within 15 s, or the request within 30 s), 431
\`headers_too_large\` (request line and headers over 16 KiB). JSON nested deeper than 32 levels is 422 \`json_invalid\`. A 422 \`input\` is a bounded copy of what was sent: strings cut to 200
characters, at most 20 entries and 4 levels per container, and the value of secret-like fields (secret, password, token, key…)
as \`"[redacted]"\`.`;

const TAGS = [
  { name: 'partner', description: 'Who a key belongs to' },
  { name: 'fleet', description: 'Vessels and the crew roster' },
  { name: 'crew', description: 'Crew lookup, profiles and photos' },
  { name: 'documents', description: 'Crew documents and their files' },
  { name: 'compliance', description: 'Compliance evaluation of a crew member' },
  { name: 'webhooks', description: "Signed events svc POSTs to a partner's endpoint (see `webhooks`)" },
  { name: 'admin', description: "Operator routes: keys, webhook endpoints, the platform's changes and files (operator key only)" },
  { name: 'operations', description: 'Health probe and this document' },
];

/**
 * Who reads a served document: partners (GET /openapi.json: the partner API and the webhooks it
 * sends) or operators (GET /api/v2/admin/openapi.json: the admin routes and the health probe).
 * A client generated from the partner document holds no operator route and no page asset.
 */
export type Audience = 'partner' | 'operator';

/** Whether the document for `audience` holds the operation (without an audience: every operation). */
export function inAudience(operation: OperationDeclaration, audience: Audience | undefined): boolean {
  if (audience === undefined) return true;
  if (audience === 'operator') return operation.access === 'operator' || operation.path === '/_internal/health';
  return operation.access === 'partner' || (operation.access === 'public' && operation.path.startsWith('/api/'));
}

const OPERATOR_DESCRIPTION = `Operator routes of the Partner Crew Compliance service: API keys, webhook endpoints, the platform's changes
and files, and the health probe. Every admin route takes an operator key (\`svc_op_…\`) as \`Authorization: Bearer <key>\`.
The partner API is described by its own document, GET /openapi.json. Errors have the shapes that document describes.`;

const SECURITY_SCHEMES: Record<string, JsonObject> = {
  partnerBearer: { type: 'http', scheme: 'bearer', description: 'partner key: svc_live_… or svc_test_…' },
  partnerApiKey: { type: 'apiKey', in: 'header', name: 'X-Partner-API-Key', description: 'partner key, when Authorization is not sent' },
  operatorBearer: { type: 'http', scheme: 'bearer', description: 'operator key: svc_op_…' },
};

/** The names of the components of one kind (`schemas`, `headers`) `value` refers to, followed through those components. */
function referenced(kind: string, value: unknown, all: Record<string, JsonObject>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referenced(kind, item, all, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const prefix = `#/components/${kind}/`;
      const name = key === '$ref' && typeof inner === 'string' && inner.startsWith(prefix) ? inner.slice(prefix.length) : undefined;
      if (name !== undefined && !found.has(name) && all[name]) {
        found.add(name);
        referenced(kind, all[name], all, found);
      } else referenced(kind, inner, all, found);
    }
  }
  return found;
}

/** Keeps the entries of `record` whose names are in `names`. */
const only = <T>(record: Record<string, T>, names: Set<string>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([name]) => names.has(name)));

/**
 * An OpenAPI 3.1 document built from the routes' declarations (src/http/routes/) and the resource
 * and webhook schemas of this folder: for partners or operators (Audience), or, without an
 * audience, every route (the union the suite checks every answer against). `serverUrl` is the
 * origin clients call: svc serves each document with its own public base URL (SVC_PUBLIC_BASE_URL,
 * else the origin of the request).
 */
export function buildOpenApiDocument(
  declared: readonly OperationDeclaration[],
  options: { audience?: Audience; serverUrl?: string } = {},
): JsonObject {
  const { audience } = options;
  const operations = declared.filter((operation) => inAudience(operation, audience));
  const paths = pathsOf(operations);
  const webhooks = audience === 'operator' ? undefined : webhookOperations();
  const allSchemas: Record<string, JsonObject> = { ...schemas, ...bodySchemasOf(operations), ...webhookSchemas(schemas.Document!) };
  const headers = audience === undefined ? HEADERS : only(HEADERS, referenced('headers', [paths, webhooks], HEADERS));
  const used = referenced('schemas', [paths, webhooks, headers], allSchemas);
  const tags = new Set(operations.flatMap((operation) => operation.doc.tags));
  if (webhooks) tags.add('webhooks');
  const schemes = new Set(Object.keys(SECURITY_SCHEMES).filter((name) => JSON.stringify(paths).includes(`"${name}"`)));
  return {
    openapi: '3.1.0',
    info: {
      title: audience === 'operator' ? 'Partner Crew Compliance API: operator routes' : 'Partner Crew Compliance API',
      version: '0.1.0',
      description: audience === 'operator' ? OPERATOR_DESCRIPTION : DESCRIPTION,
      contact: { name: 'The operator of this service, who issued your key' },
      license: { name: 'Proprietary: for partners holding a key', identifier: 'LicenseRef-Proprietary' },
    },
    // No jsonSchemaDialect: the default is the OAS 3.1 dialect anyway, and Prism skipped every body
    // check while it was named (docs/decisions.md, "OpenAPI document").
    servers: [{ url: options.serverUrl ?? 'https://svc.example', description: 'this service (SVC_PUBLIC_BASE_URL)' }],
    tags: TAGS.filter((tag) => tags.has(tag.name)),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: only(SECURITY_SCHEMES, schemes),
      headers,
      schemas: audience === undefined ? allSchemas : only(allSchemas, used),
    },
  };
}
