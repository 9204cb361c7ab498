import { utcDate } from '../../domain/clock.ts';
import { DOCUMENT_DOWNLOAD_SCOPES } from '../../domain/scopes.ts';
import { createDownloadLink, listCrewDocuments } from '../../services/read-api/documents.ts';
import { route, routeModule } from '../route.ts';
import { baseUrl, partnerOf, pathParam } from '../request-context.ts';

/** The document list and download links of one crew member. */
export const documentsRoutes = routeModule('documents', [
  route({
    method: 'get',
    path: '/api/v2/employers/me/crew/:crew_unique_id/documents',
    etag: 'data',
    access: 'partner',
    scopes: { all: ['crew:documents:read'] },
    doc: {
      operationId: 'listCrewDocuments',
      tags: ['documents'],
      summary: "A crew member's current documents",
      description:
        'Needs documents consent. Only documents that finished processing, are the current edition and are live ' +
        '(not withdrawn) are listed: rejected, replaced, deduplicated, placeholder, still-processing and pre-current-processing documents never are. ' +
        'Medical-class documents only with `crew:medical:read`.',
      responses: { 200: { description: 'The documents', schema: 'DocumentList' } },
      errors: { 403: ['consent_required'], 404: ['crew_not_found'] },
    },
    async handle(ctx, _input, deps) {
      ctx.body = await listCrewDocuments(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'), utcDate(deps.clock()));
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/employers/me/crew/:crew_unique_id/documents/:document_id/download',
    access: 'partner',
    scopes: DOCUMENT_DOWNLOAD_SCOPES,
    doc: {
      operationId: 'getDocumentDownloadLink',
      tags: ['documents'],
      summary: 'A short-lived download link for one document',
      description:
        'Needs documents consent. 404 for any document the documents list would not show ' +
        '(including a medical document without `crew:medical:read`). The link is valid for 15 minutes: follow it at once, do not store it.',
      responses: { 200: { description: 'The link', schema: 'DownloadLink' } },
      errors: { 403: ['consent_required'], 404: ['crew_not_found', 'document_not_found'] },
    },
    async handle(ctx, _input, deps) {
      const { fileLink } = await deps.signingKeys();
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = await createDownloadLink(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'), pathParam(ctx, 'document_id'), {
        key: fileLink,
        now: deps.clock(),
        ttlSeconds: deps.config.downloadLinkTtlSeconds,
        baseUrl: baseUrl(ctx, deps.config),
      });
    },
  }),
]);
