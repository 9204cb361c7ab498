import { str } from '../../domain/fields.ts';
import { runComplianceCheck } from '../../services/read-api/compliance.ts';
import { route, routeModule } from '../route.ts';
import { baseUrl, partnerOf, pathParam } from '../request-context.ts';

/** The compliance check of one crew member, with the stored-result fallback. */
export const complianceRoutes = routeModule('compliance', [
  route({
    method: 'post',
    path: '/api/v2/employers/me/crew/:crew_unique_id/compliance-checks',
    access: 'partner',
    scopes: { all: ['crew:compliance:read'] },
    query: {
      vessel_id: {
        parse: str({ minLength: 1, maxLength: 128 }),
        description: 'picks the vessel when the crew member is on more than one of your vessels',
      },
    },
    body: { fields: {}, schema: 'EmptyBody', description: 'exactly {}: the check takes no fields' },
    doc: {
      operationId: 'checkCrewCompliance',
      tags: ['compliance'],
      summary: 'Evaluate a crew member against the requirements of their role on a vessel',
      description: 'Needs compliance consent. The vessel is `vessel_id` when given (404 when the crew member is not on '
        + 'that vessel of your fleet), else the most recent active assignment. The evaluator has a deadline; when it fails or times out, the most '
        + 'recent stored result is returned with `compliance_source: serviceCompliance_fallback` and its own `as_of`, and with none stored the '
        + 'answer is 503 `compliance_unavailable`. Without `crew:medical:read`, medical rows keep their status but show no documents and no expiry. '
        + '`satisfied_by[].download_path` is an absolute file link (like `download_url`) valid 15 minutes, null without '
        + '`crew:documents:download` or documents consent.',
      responses: { 200: { description: 'The compliance check result', schema: 'ComplianceCheck' } },
      errors: { 403: ['consent_required'], 404: ['crew_not_found'], 503: ['compliance_unavailable'] },
    },
    async handle(ctx, { query }, deps) {
      const { fileLink } = await deps.signingKeys();
      ctx.body = await runComplianceCheck(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'), query.vessel_id, {
        clock: deps.clock,
        catalogue: deps.catalogue,
        windowDays: deps.config.complianceWindowDays,
        deadlineMs: deps.config.complianceDeadlineMs,
        fault: deps.config.complianceFault,
        results: deps.complianceResults,
        reuse: { version: deps.dataVersion, evaluations: deps.evaluations, crewAccess: deps.crewAccess },
      }, { key: fileLink, now: deps.clock(), ttlSeconds: deps.config.downloadLinkTtlSeconds, baseUrl: baseUrl(ctx, deps.config) });
    },
  }),
]);
