import { openFileLink } from '../../services/read-api/file-links.ts';
import { sendStoredFile } from '../streamed-body.ts';
import { route, routeModule } from '../route.ts';
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
export const filesRoutes = routeModule('files', [
  route({
    method: 'get',
    path: '/api/v2/files/:token',
    access: 'public',
    doc: {
      operationId: 'getFile',
      tags: ['documents'],
      summary: 'The file behind a download link',
      description:
        'No API key: the signed token is the credential. Every gate of the download endpoint is checked again when the link is followed ' +
        '(key still active, scope, fleet, consent, document still listable). 410 `link_expired` after 15 minutes, 404 `not_found` for a tampered token.',
      responses: {
        200: {
          description: 'The file, as an attachment',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: {
            'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
            'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
            'image/jpeg': {},
            'image/png': {},
          },
        },
      },
      errors: {
        403: ['insufficient_scope', 'consent_required'],
        404: ['not_found', 'crew_not_found', 'document_not_found'],
        410: ['link_expired'],
      },
    },
    async handle(ctx, _input, deps) {
      // The token is a credential for its lifetime: it is kept out of the audit row and the log.
      ctx.state.audit.path = '/api/v2/files/{token}';
      const { fileLink } = await deps.signingKeys();
      const { file, fileName } = await openFileLink(deps.db, fileLink, pathParam(ctx, 'token'), deps.clock(), (claims) => {
        Object.assign(ctx.state.audit, {
          partnerId: claims.partnerId,
          keyId: claims.keyId,
          crewUniqueId: claims.crewUniqueId,
          documentId: claims.documentId,
        });
      });
      ctx.set('Cache-Control', 'private, no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Disposition', contentDisposition(fileName));
      sendStoredFile(ctx, file);
    },
  }),
]);
