import { errorResponses, jsonResponse, responseHeaders } from '../errors.ts';
import type { PathItems } from '../types.ts';
import { CREW_ID, PARTNER_SECURITY, pathParam } from './common.ts';

const DOCUMENT_ID = pathParam('document_id', 'a document_id from the documents list');

export const documentPaths: PathItems = {
  '/api/v2/employers/me/crew/{crew_unique_id}/documents': {
    get: {
      operationId: 'listCrewDocuments',
      tags: ['documents'],
      summary: 'A crew member\'s current documents',
      description: 'Scope `crew:documents:read` and documents consent. Only documents that finished processing, are the current edition and are live '
        + '(not withdrawn) are listed: rejected, replaced, deduplicated, placeholder, still-processing and pre-current-processing documents never are. '
        + 'Medical-class documents only with `crew:medical:read`.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['crew:documents:read'],
      parameters: [CREW_ID],
      responses: {
        200: jsonResponse('The documents', 'DocumentList'),
        ...errorResponses({ 403: ['insufficient_scope', 'consent_required'], 404: ['crew_not_found'] }),
      },
    },
  },
  '/api/v2/employers/me/crew/{crew_unique_id}/documents/{document_id}/download': {
    get: {
      operationId: 'getDocumentDownloadLink',
      tags: ['documents'],
      summary: 'A short-lived download link for one document',
      description: 'Scope `crew:documents:download` and documents consent. 404 for any document the documents list would not show '
        + '(including a medical document without `crew:medical:read`). The link is valid for 15 minutes: follow it at once, do not store it.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['crew:documents:download'],
      parameters: [CREW_ID, DOCUMENT_ID],
      responses: {
        200: jsonResponse('The link', 'DownloadLink'),
        ...errorResponses({ 403: ['insufficient_scope', 'consent_required'], 404: ['crew_not_found', 'document_not_found'] }),
      },
    },
  },
  '/api/v2/files/{token}': {
    get: {
      operationId: 'getFile',
      tags: ['documents'],
      summary: 'The file behind a download link',
      description: 'No API key: the signed token is the credential. Every gate of the download endpoint is checked again when the link is followed '
        + '(key still active, scope, fleet, consent, document still listable). 410 `link_expired` after 15 minutes, 404 `not_found` for a tampered token.',
      security: [],
      parameters: [pathParam('token', 'the token from download_url')],
      responses: {
        200: {
          description: 'The file, as an attachment',
          headers: { ...responseHeaders(false), 'Content-Disposition': { schema: { type: 'string' } } },
          content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } }, 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } }, 'image/jpeg': {}, 'image/png': {} },
        },
        ...errorResponses({
          403: ['insufficient_scope', 'consent_required'], 404: ['not_found', 'crew_not_found', 'document_not_found'], 410: ['link_expired'],
        }, false),
      },
    },
  },
};
