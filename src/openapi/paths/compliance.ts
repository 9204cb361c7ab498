import { errorResponses, jsonResponse } from '../errors.ts';
import { ref, type PathItems } from '../types.ts';
import { CREW_ID, PARTNER_SECURITY } from './common.ts';

export const compliancePaths: PathItems = {
  '/api/v2/employers/me/crew/{crew_unique_id}/compliance-checks': {
    post: {
      operationId: 'checkCrewCompliance',
      tags: ['compliance'],
      summary: 'Evaluate a crew member against the requirements of their role on a vessel',
      description: 'Scope `crew:compliance:read` and compliance consent. The vessel is `vessel_id` when given (404 when the crew member is not on '
        + 'that vessel of your fleet), else the most recent active assignment. The evaluator has a deadline; when it fails or times out, the most '
        + 'recent stored result is returned with `compliance_source: serviceCompliance_fallback` and its own `as_of`, and with none stored the '
        + 'answer is 503 `compliance_unavailable`. Without `crew:medical:read`, medical rows keep their status but show no documents and no expiry. '
        + '`satisfied_by[].download_path` is a file link valid 15 minutes, null without `crew:documents:download` or documents consent.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['crew:compliance:read'],
      parameters: [CREW_ID, {
        name: 'vessel_id', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 128 },
        description: 'picks the vessel when the crew member is on more than one of your vessels',
      }],
      requestBody: { required: true, content: { 'application/json': { schema: ref('EmptyBody') } } },
      responses: {
        200: jsonResponse('The compliance check result', 'ComplianceCheck'),
        ...errorResponses({
          403: ['insufficient_scope', 'consent_required'], 404: ['crew_not_found'], 413: ['payload_too_large'], 415: ['unsupported_media_type'],
          422: 'validation', 503: ['compliance_unavailable'],
        }),
      },
    },
  },
};
