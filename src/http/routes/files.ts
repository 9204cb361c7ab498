import { openFileLink } from '../../services/read-api/file-links.ts';
import type { RouteModule } from '../app-deps.ts';
import { pathParam } from '../request-context.ts';

/** `filename` made safe for a quoted header value; the exact name goes in `filename*`. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * `GET /api/v2/files/{token}`: the target of a download link. No API key: the signed token is the
 * credential, and every gate is checked again when it is followed. Audited with the token's
 * partner, key, crew member and document.
 */
export const filesRoutes: RouteModule = {
  name: 'files',
  register(router, deps) {
    router.get('/api/v2/files/:token', async (ctx) => {
      // The token is a credential for its lifetime: it is kept out of the audit row and the log.
      ctx.state.audit.path = '/api/v2/files/{token}';
      const { fileLink } = await deps.signingKeys();
      const file = await openFileLink(deps.db, fileLink, pathParam(ctx, 'token'), deps.clock(), (c) => {
        Object.assign(ctx.state.audit, { partnerId: c.partnerId, keyId: c.keyId, crewUniqueId: c.crewUniqueId, documentId: c.documentId });
      });
      ctx.set('Cache-Control', 'private, no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Disposition', contentDisposition(file.fileName));
      ctx.type = file.contentType;
      ctx.body = file.bytes;
    });
  },
};
