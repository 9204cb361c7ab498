import { errorResponses, jsonResponse } from '../errors.ts';
import type { PathItems } from '../types.ts';

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
        ...errorResponses({}, false),
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['operations'],
      summary: 'This document',
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
        ...errorResponses({}, false),
      },
    },
  },
};
