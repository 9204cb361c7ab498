import { errorResponses, jsonResponse } from '../errors.ts';
import type { JsonObject, PathItems } from '../types.ts';

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
      description: 'No key. The OpenAPI 3.1 document of the partner API and of the webhooks it sends.',
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
        ...HEADERS_TOO_LARGE,
        ...errorResponses({}, false),
      },
    },
  },
};
