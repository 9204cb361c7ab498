import { HEADERS } from './errors.ts';
import { bodySchemasOf, pathsOf, type OperationDeclaration } from './operation.ts';
import { schemas } from './schemas.ts';
import type { JsonObject } from './types.ts';
import { webhookOperations, webhookSchemas } from './webhooks.ts';

const DESCRIPTION = `Read-only partner API over crew, vessel, document and compliance data.

Authentication: a partner key (\`svc_live_…\` for live data, \`svc_test_…\` for test-flagged data) as \`Authorization: Bearer <key>\`
(over TLS), or in \`X-Partner-API-Key\`; Bearer wins when both are sent. Admin routes take an operator key (\`svc_op_…\`).

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
 * The OpenAPI 3.1 document of the service, served at GET /openapi.json: the paths built from the
 * routes' declarations (src/http/routes/), the resource and webhook schemas of this folder.
 */
export function buildOpenApiDocument(operations: readonly OperationDeclaration[]): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Crew Compliance API',
      version: '0.1.0',
      description: DESCRIPTION,
      contact: { name: 'The operator of this service, who issued your key' },
      license: { name: 'Proprietary: for partners holding a key', identifier: 'LicenseRef-Proprietary' },
    },
    // No jsonSchemaDialect: the default is the OAS 3.1 dialect anyway, and Prism skipped every body
    // check while it was named (docs/decisions.md, "OpenAPI document").
    // Relative: the paths are served by whichever svc serves this document.
    servers: [{ url: '/', description: 'this service (the origin that served this document)' }],
    tags: TAGS,
    paths: pathsOf(operations),
    webhooks: webhookOperations(),
    components: {
      securitySchemes: {
        partnerBearer: { type: 'http', scheme: 'bearer', description: 'partner key: svc_live_… or svc_test_…' },
        partnerApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Partner-API-Key',
          description: 'partner key, when Authorization is not sent',
        },
        operatorBearer: { type: 'http', scheme: 'bearer', description: 'operator key: svc_op_…' },
      },
      headers: HEADERS,
      schemas: { ...schemas, ...bodySchemasOf(operations), ...webhookSchemas(schemas.Document!) },
    },
  };
}
