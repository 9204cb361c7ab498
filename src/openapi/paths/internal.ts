import { errorResponses, jsonResponse, responseHeaders } from '../errors.ts';
import type { JsonObject, PathItems } from '../types.ts';
import { pathParam } from './common.ts';

const DOCS_HEADERS: Record<string, JsonObject> = {
  ...responseHeaders(false),
  ETag: { description: 'the file\'s content hash', schema: { type: 'string' } },
  'Cache-Control': { description: '`no-cache` for the page, `public, max-age=86400` for assets', schema: { type: 'string' } },
  'Content-Security-Policy': { description: 'this origin only (images also as data: URIs)', schema: { type: 'string' } },
};

/**
 * The one client error of an operation that takes no key and no input: Node's HTTP server refuses
 * request headers over its 16 KiB limit before the app sees the request.
 */
export const HEADERS_TOO_LARGE: Record<string, JsonObject> = {
  431: { description: 'Request headers over 16 KiB: refused by the HTTP server itself, with no body and no X-Request-Id' },
};

export const internalPaths: PathItems = {
  '/_internal/health': {
    get: {
      operationId: 'getHealth',
      tags: ['operations'],
      summary: 'Health probe',
      description: 'No key. 200 when the store answers within 2 s, else 503.',
      security: [],
      responses: {
        200: jsonResponse('Healthy', 'Health', false),
        503: jsonResponse('The store does not answer', 'Health', false),
        ...HEADERS_TOO_LARGE,
        ...errorResponses({}, false),
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['operations'],
      summary: 'This document',
      description: 'No key. The OpenAPI 3.1 document of the partner API and of the webhooks it sends; `GET /docs` renders it.',
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
        ...HEADERS_TOO_LARGE,
        ...errorResponses({}, false),
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'getApiReferencePage',
      tags: ['operations'],
      summary: 'This document as an interactive reference page',
      description: 'No key. Swagger UI rendering `/openapi.json`; every script, stylesheet and image comes from this service '
        + '(`/docs/assets/…`), under a Content-Security-Policy that allows this origin only. Revalidated on every load (ETag).',
      security: [],
      responses: {
        200: { description: 'The HTML page', headers: DOCS_HEADERS, content: { 'text/html': { schema: { type: 'string' } } } },
        304: { description: 'Not modified (If-None-Match matched the ETag)' },
        ...HEADERS_TOO_LARGE,
        ...errorResponses({}, false),
      },
    },
  },
  '/docs/assets/{file}': {
    get: {
      operationId: 'getApiReferenceAsset',
      tags: ['operations'],
      summary: 'A script, stylesheet or icon of the reference page',
      description: 'No key. Cached for a day (`Cache-Control: public, max-age=86400`), then revalidated by ETag.',
      security: [],
      parameters: [pathParam('file', 'e.g. `swagger-ui-bundle.js`, as the page names it')],
      responses: {
        200: {
          description: 'The file',
          headers: DOCS_HEADERS,
          content: {
            'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } },
            'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          },
        },
        304: { description: 'Not modified (If-None-Match matched the ETag)' },
        ...errorResponses({ 404: ['not_found'] }, false),
      },
    },
  },
};
