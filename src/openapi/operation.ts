import type { ErrorCode } from '../domain/app-error.ts';
import { fieldSchema, objectSchema, type FieldSpecs, type JsonSchema } from '../domain/fields.ts';
import type { ScopeRule } from '../domain/scopes.ts';
import { apiResponseHeaders, errorResponses, responseHeaders } from './errors.ts';
import { ref, type JsonObject, type PathItems } from './types.ts';

/** Who may call an operation: a partner key, an operator key, or anyone. */
export type Access = 'partner' | 'operator' | 'public';

/**
 * A JSON request body: an object read field by field (its schema derived from the fields and
 * published as the component `schema`), or a body a service validates itself, described by a
 * component schema; or a body the route reads itself as it streams in (NDJSON, a file), described
 * by its media types.
 */
export type BodyDeclaration =
  | { fields: FieldSpecs; schema: string; description?: string }
  | { validatedBy: 'service'; schema: string }
  | { readBy: 'route'; content: Record<string, JsonObject>; description: string };

/** A documented response: a component schema (JSON), or explicit content. */
export interface ResponseDeclaration {
  description: string;
  schema?: string;
  content?: JsonObject;
  /** Headers beyond the ones derived from the access (X-Request-Id, rate limit). */
  headers?: Record<string, JsonObject>;
}

/**
 * What a route declares once (src/http/routes/) and the OpenAPI operation is built from: its
 * method and path, who may call it, the scopes it requires, its query and body. The prose and
 * the responses particular to the route come with it; everything the declaration implies (the
 * security, scope, 401/403/413/415/422/429/500 answers, parameters and their schemas) is derived.
 */
export interface OperationDeclaration {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The router's form: `/api/v2/employers/me/crew/:crew_unique_id/documents`. */
  path: string;
  access: Access;
  scopes?: ScopeRule;
  query?: FieldSpecs;
  body?: BodyDeclaration;
  /**
   * GETs of the partner API answer with a strong ETag, a hash of the body, and honour If-None-Match
   * (304): `data` also keeps the answer per request while the store's data version holds, `body`
   * (the default) builds it every time; `false` for a route with its own caching.
   */
  etag?: 'data' | 'body' | false;
  doc: {
    operationId: string;
    tags: string[];
    summary: string;
    description?: string;
    responses: Record<number, ResponseDeclaration>;
    /** Error codes by status beyond the derived ones (404 crew_not_found, 403 consent_required…). */
    errors?: Partial<Record<number, ErrorCode[]>>;
    /** Request headers the route reads (`Idempotency-Key`), as OpenAPI parameter objects. */
    headers?: JsonObject[];
  };
}

/** What each path parameter of the API means; every parameter a route names must be here. */
const PATH_PARAMETERS: Record<string, string> = {
  crew_unique_id: 'the crew member, as in the fleet list or the crew lookup',
  document_id: 'a document_id from the documents list',
  partner_id: 'the partner',
  vessel_id: 'one of your vessels, as in the vessels list',
  key_id: 'the key to revoke or delete',
  token: 'the token from download_url',
  sha256: "the SHA-256 of the file's bytes, 64 lowercase hex digits",
  file: 'e.g. `swagger-ui-bundle.js`, as the page names it',
  event_id: 'one of your events, as the events feed or a delivery names it',
};

const SECURITY: Record<Access, JsonObject[]> = {
  partner: [{ partnerBearer: [] }, { partnerApiKey: [] }],
  operator: [{ operatorBearer: [] }],
  public: [],
};

/**
 * Node's HTTP server refuses request headers over its 16 KiB limit before the app sees the
 * request, whatever the path: every operation can answer it (src/http/client-error.ts).
 */
const HEADERS_TOO_LARGE: Record<string, JsonObject> = {
  431: {
    description: 'Request line and headers over 16 KiB: answered by the HTTP server before the app, `headers_too_large`',
    headers: responseHeaders(false),
    content: { 'application/json': { schema: ref('Error') } },
  },
};

/** `/crew/:crew_unique_id/documents` → `/crew/{crew_unique_id}/documents`, the OpenAPI spelling. */
export function pathTemplate(routerPath: string): string {
  return routerPath.replace(/:(\w+)/g, '{$1}');
}

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => {
    const description = PATH_PARAMETERS[name!];
    if (!description) throw new Error(`path parameter ${name} of ${path} has no description in src/openapi/operation.ts`);
    return { name, in: 'path', required: true, description, schema: { type: 'string' } };
  });
}

function queryParameters(query: FieldSpecs = {}): JsonObject[] {
  return Object.entries(query).map(([name, field]) => {
    const { description, ...schema } = fieldSchema(field);
    return { name, in: 'query', ...(field.required ? { required: true } : {}), ...(description ? { description } : {}), schema };
  });
}

/** The sentence that states an operation's scopes, first in its description. */
function scopeSentence(rule: ScopeRule | undefined): string | undefined {
  if (!rule) return undefined;
  const quoted = (list: readonly string[]) =>
    list
      .map((s) => `\`${s}\``)
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1');
  if ('all' in rule) return `${rule.all.length === 1 ? 'Scope' : 'Scopes'} ${quoted(rule.all)}.`;
  return `Any one of the scopes ${quoted(rule.any).replace(/ and ([^ ]*)$/, ' or $1')}; with none of them, 403 names \`${rule.any[0]}\`.`;
}

/** The scopes again, machine-readable: `x-required-scopes` (all of them) or `x-required-any-scope`. */
function scopeExtension(rule: ScopeRule | undefined): JsonObject {
  if (!rule) return {};
  return 'all' in rule ? { 'x-required-scopes': [...rule.all] } : { 'x-required-any-scope': [...rule.any] };
}

function response(declared: ResponseDeclaration, access: Access): JsonObject {
  const headers = { ...responseHeaders(access !== 'public'), ...(declared.headers ?? {}) };
  const content = declared.content ?? (declared.schema ? { 'application/json': { schema: ref(declared.schema) } } : undefined);
  return { description: declared.description, headers, ...(content ? { content } : {}) };
}

/** Error responses the declaration implies, merged with the route's own. */
function errors(declaration: OperationDeclaration): Record<string, JsonObject> {
  const byStatus: Record<number, ErrorCode[] | 'validation'> = {};
  const add = (status: number, codes: readonly ErrorCode[]) => {
    const before = byStatus[status];
    byStatus[status] = [...new Set([...(Array.isArray(before) ? before : []), ...codes])];
  };
  if (declaration.scopes || declaration.access === 'operator') add(403, ['insufficient_scope']);
  for (const [status, codes] of Object.entries(declaration.doc.errors ?? {})) add(Number(status), codes ?? []);
  if (declaration.body) {
    add(413, ['payload_too_large']);
    add(415, ['unsupported_media_type']);
  }
  if (declaration.body || (declaration.query && Object.keys(declaration.query).length > 0)) byStatus[422] = 'validation';
  return { ...HEADERS_TOO_LARGE, ...errorResponses(byStatus, declaration.access !== 'public') };
}

function requestBody(body: BodyDeclaration): JsonObject {
  if ('readBy' in body) return { required: true, description: body.description, content: body.content };
  return { required: true, content: { 'application/json': { schema: ref(body.schema) } } };
}

/** Every answer under /api/v2 carries the API headers; a response's own value of one wins. */
function withApiHeaders(path: string, responses: Record<string, JsonObject>): Record<string, JsonObject> {
  if (!/^\/api\/v2\//.test(path)) return responses;
  return Object.fromEntries(
    Object.entries(responses).map(([status, answer]) => [
      status,
      { ...answer, headers: { ...apiResponseHeaders(), ...(answer.headers as JsonObject | undefined) } },
    ]),
  );
}

/** Whether the operation answers with an ETag and takes If-None-Match (src/http/conditional.ts). */
export function isConditional(declaration: Pick<OperationDeclaration, 'method' | 'access' | 'etag'>): boolean {
  return declaration.method === 'get' && declaration.access === 'partner' && declaration.etag !== false;
}

const IF_NONE_MATCH: JsonObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'the ETag of a previous answer: 304 Not Modified, without a body, while it still matches',
};

/** The 200 with its ETag, and the 304 (authenticated, rate-limited and audited like any call). */
function conditionalResponses(responses: Record<string, JsonObject>): Record<string, JsonObject> {
  const etag = { $ref: '#/components/headers/ETag' };
  const ok = responses['200'];
  return {
    ...responses,
    ...(ok ? { 200: { ...ok, headers: { ...(ok.headers as JsonObject), ETag: etag } } } : {}),
    304: {
      description: 'Not modified: If-None-Match matched the current ETag; no body',
      headers: { ...responseHeaders(true), ETag: etag },
    },
  };
}

/** The OpenAPI operation object of one declaration. */
export function operationOf(declaration: OperationDeclaration): JsonObject {
  const description = [scopeSentence(declaration.scopes), declaration.doc.description].filter(Boolean).join(' ');
  const parameters = [
    ...pathParameters(declaration.path),
    ...queryParameters(declaration.query),
    ...(declaration.doc.headers ?? []),
    ...(isConditional(declaration) ? [IF_NONE_MATCH] : []),
  ];
  const declared = Object.fromEntries(
    Object.entries(declaration.doc.responses).map(([status, r]) => [status, response(r, declaration.access)]),
  );
  const responses = isConditional(declaration) ? conditionalResponses(declared) : declared;
  return {
    operationId: declaration.doc.operationId,
    tags: declaration.doc.tags,
    summary: declaration.doc.summary,
    ...(description ? { description } : {}),
    security: SECURITY[declaration.access],
    ...scopeExtension(declaration.scopes),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(declaration.body ? { requestBody: requestBody(declaration.body) } : {}),
    // A status the route declares itself (the health probe's 503) keeps its own description.
    responses: withApiHeaders(declaration.path, {
      ...responses,
      ...Object.fromEntries(Object.entries(errors(declaration)).filter(([status]) => !(status in responses))),
    }),
  };
}

/** The `paths` of the document: one operation per declaration, grouped by path template. */
export function pathsOf(declarations: readonly OperationDeclaration[]): PathItems {
  const out: Record<string, JsonObject> = {};
  for (const declaration of declarations) {
    const template = pathTemplate(declaration.path);
    out[template] = { ...(out[template] ?? {}), [declaration.method]: operationOf(declaration) };
  }
  return out;
}

/** The request body schemas the declarations derive from their fields, as components. */
export function bodySchemasOf(declarations: readonly OperationDeclaration[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const declaration of declarations) {
    if (declaration.body && 'fields' in declaration.body) {
      const description = declaration.body.description;
      out[declaration.body.schema] = { ...objectSchema(declaration.body.fields), ...(description ? { description } : {}) };
    }
  }
  return out;
}
