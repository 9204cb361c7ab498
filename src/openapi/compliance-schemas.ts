import { OVERALL_STATUSES, REQUIREMENT_STATUSES } from '../domain/vocabulary.ts';
import { nullable, ref, type JsonObject } from './types.ts';

const str = { type: 'string' };
const date = { type: 'string', format: 'date' };
const count = { type: 'integer', minimum: 0 };

function object(properties: Record<string, JsonObject>, required: string[] = Object.keys(properties), extra: JsonObject = {}): JsonObject {
  return { type: 'object', properties, required, ...extra };
}

/** What `medical_on` means, in the check, the fleet list and the matrix (docs/decisions.md §6). */
export const MEDICAL_ON =
  'present only when medical rows are shown as they stand on another date than `on`: today, for a key without ' +
  '`crew:medical:read`, whatever `on` it asks about, so that no date reveals a medical expiry';

/** The summary counts of a compliance check: one per requirement status, adding up to `total`. */
export const complianceSummary: JsonObject = object({
  total: count,
  met: count,
  expiring: count,
  expired: count,
  missing: count,
  pending: count,
});

/** The fleet compliance list and the crew certificate matrix (src/http/routes/fleet-compliance.ts). */
export const complianceSchemas: Record<string, JsonObject> = {
  NextChange: object(
    {
      on: { ...date, description: 'the first day with the new overall status' },
      overall_status: { enum: [...OVERALL_STATUSES] },
      requirement_keys: { type: 'array', items: str, description: 'the required rows whose status changes that day, sorted' },
    },
    ['on', 'overall_status', 'requirement_keys'],
    {
      example: { on: '2027-03-02', overall_status: 'at_risk', requirement_keys: ['bst'] },
    },
  ),
  FleetComplianceItem: object({
    crew_unique_id: str,
    vessel_id: str,
    position_name: nullable(str),
    overall_status: { enum: [...OVERALL_STATUSES], description: 'on `on`, as the compliance check gives it' },
    summary: complianceSummary,
    next_change: {
      ...nullable(ref('NextChange')),
      description:
        'null when the calendar alone changes nothing within two years of `on`; without `crew:medical:read`, medical rows ' +
        'are held at their status of today, as every later check with that key shows them',
    },
  }),
  FleetCompliancePage: object(
    {
      on: { ...date, description: 'the date evaluated' },
      medical_on: { ...date, description: MEDICAL_ON },
      items: { type: 'array', items: ref('FleetComplianceItem') },
      next_cursor: { ...str, description: 'absent on the last page; pass it as `cursor` for the next page' },
    },
    ['on', 'items'],
    {
      example: {
        on: '2026-11-22',
        items: [
          {
            crew_unique_id: 'crew_ana',
            vessel_id: 'ves_a1',
            position_name: 'Master',
            overall_status: 'compliant',
            summary: { total: 12, met: 12, expiring: 0, expired: 0, missing: 0, pending: 0 },
            next_change: { on: '2027-03-02', overall_status: 'at_risk', requirement_keys: ['bst'] },
          },
        ],
      },
    },
  ),
  ComplianceMatrix: object(
    {
      vessel_id: str,
      on: { ...date, description: 'the date evaluated' },
      medical_on: { ...date, description: MEDICAL_ON },
      columns: {
        type: 'array',
        items: object({ key: str, title: str, group: str }),
        description: "requirement keys of the crew's roles, in the order first met",
      },
      rows: {
        type: 'array',
        items: object({
          crew_unique_id: str,
          position_name: nullable(str),
          overall_status: { enum: [...OVERALL_STATUSES] },
          cells: {
            type: 'array',
            description: "one per column; null where the crew member's role lacks the requirement",
            items: nullable(
              object({
                status: { enum: [...REQUIREMENT_STATUSES] },
                expiry_date: { ...nullable(date), description: 'null for medical rows without crew:medical:read' },
              }),
            ),
          },
        }),
      },
    },
    ['vessel_id', 'on', 'columns', 'rows'],
    {
      example: {
        vessel_id: 'ves_a1',
        on: '2026-11-22',
        columns: [
          { key: 'medical_fitness', title: 'Medical fitness certificate', group: 'medical' },
          { key: 'bst', title: 'Basic safety training', group: 'stcw' },
        ],
        rows: [
          {
            crew_unique_id: 'crew_ana',
            position_name: 'Master',
            overall_status: 'at_risk',
            cells: [
              { status: 'expiring', expiry_date: '2026-12-01' },
              { status: 'met', expiry_date: '2029-06-30' },
            ],
          },
        ],
      },
    },
  ),
};
