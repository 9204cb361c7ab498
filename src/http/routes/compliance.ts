import { onDate, onDateIssue } from '../../domain/compliance/on-date.ts';
import { FORECAST_HORIZON_DAYS } from '../../domain/compliance/status-forecast.ts';
import { utcDate } from '../../domain/clock.ts';
import { str } from '../../domain/fields.ts';
import { runComplianceCheck } from '../../services/read-api/compliance.ts';
import { route, routeModule } from '../route.ts';
import { throwValidation } from '../validation/issues.ts';
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
    body: {
      fields: {
        on: { parse: onDate, description: `the date to evaluate on, today to today + ${FORECAST_HORIZON_DAYS} days (UTC); default today` },
      },
      schema: 'ComplianceCheckRequest',
      description: '`{}` checks today; `{"on": "YYYY-MM-DD"}` checks the documents held now as they will stand on that date',
    },
    doc: {
      operationId: 'checkCrewCompliance',
      tags: ['compliance'],
      summary: 'Evaluate a crew member against the requirements of their role on a vessel',
      description:
        'Needs compliance consent. The vessel is `vessel_id` when given (404 when the crew member is not on ' +
        'that vessel of your fleet), else the most recent active assignment. The evaluator has a deadline; when it fails or times out, the most ' +
        'recent stored result is returned with `compliance_source: serviceCompliance_fallback` and its own `as_of`, and with none stored the ' +
        'answer is 503 `compliance_unavailable`. Without `crew:medical:read`, medical rows keep their status but show no documents and no expiry, and ' +
        'with `on` they are shown as they stand today, so no date reveals a medical expiry (`medical_on` then gives today). ' +
        '`satisfied_by[].download_path` is an absolute file link (like `download_url`) valid 15 minutes from signing, ' +
        'null without ' +
        '`crew:documents:download` or documents consent. With `on`, the documents held now are evaluated as they will stand on that ' +
        'date (no renewal assumed): statuses, `days_until_expiry` and the expiring window count from `on`, which the answer echoes; ' +
        'the stored-result fallback applies to today only (docs/compliance.md).',
      responses: { 200: { description: 'The compliance check result', schema: 'ComplianceCheck' } },
      errors: { 403: ['consent_required'], 404: ['crew_not_found'], 503: ['compliance_unavailable'] },
    },
    async handle(ctx, { query, body }, deps) {
      const issue = onDateIssue(['body', 'on'], body.on, utcDate(deps.clock()));
      if (issue) throwValidation([issue]);
      const { fileLink } = await deps.signingKeys();
      const target = { vesselId: query.vessel_id, on: body.on };
      ctx.body = await runComplianceCheck(
        deps.db,
        partnerOf(ctx),
        pathParam(ctx, 'crew_unique_id'),
        target,
        {
          clock: deps.clock,
          catalogue: deps.readCache.catalogue,
          windowDays: deps.config.complianceWindowDays,
          deadlineMs: deps.config.complianceDeadlineMs,
          fault: deps.config.complianceFault,
          results: deps.complianceResults,
          ...(await deps.readCache.checkReads()),
        },
        { key: fileLink, now: deps.clock(), ttlSeconds: deps.config.downloadLinkTtlSeconds, baseUrl: baseUrl(ctx, deps.config) },
      );
    },
  }),
]);
