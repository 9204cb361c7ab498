import { utcDate } from '../../domain/document.ts';
import { createDownloadLink, listCrewDocuments } from '../../services/read-api/documents.ts';
import type { RouteModule } from '../app-deps.ts';
import { partnerGuards } from '../middleware/guards.ts';
import { baseUrl, partnerOf, pathParam } from '../request-context.ts';

/** The document list and download links of one crew member. */
export const documentsRoutes: RouteModule = {
  name: 'documents',
  register(router, deps) {
    router.get('/api/v2/employers/me/crew/:crew_unique_id/documents', ...partnerGuards(deps), async (ctx) => {
      ctx.body = await listCrewDocuments(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'), utcDate(deps.clock()));
    });

    router.get('/api/v2/employers/me/crew/:crew_unique_id/documents/:document_id/download', ...partnerGuards(deps), async (ctx) => {
      const { fileLink } = await deps.signingKeys();
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = await createDownloadLink(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'), pathParam(ctx, 'document_id'), {
        key: fileLink, now: deps.clock(), ttlSeconds: deps.config.downloadLinkTtlSeconds, baseUrl: baseUrl(ctx, deps.config),
      });
    });
  },
};
