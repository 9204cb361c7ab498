import { createHash } from 'node:crypto';
import { onDate, onDateIssue } from '../../domain/compliance/on-date.ts';
import { FORECAST_HORIZON_DAYS } from '../../domain/compliance/status-forecast.ts';
import { utcDate } from '../../domain/clock.ts';
import { int, str, type FieldParser } from '../../domain/fields.ts';
import { issues } from '../../domain/validation-issues.ts';
import { FLEET_PAGE_LIMIT, OVERALL_STATUSES, type OverallStatus } from '../../domain/vocabulary.ts';
import { complianceMatrix, matrixCsv } from '../../services/read-api/compliance-matrix.ts';
import {
  decodeFleetComplianceCursor,
  listFleetCompliancePage,
  type FleetComplianceFilters,
} from '../../services/read-api/fleet-compliance.ts';
import type { AppContext, RouteDeps } from '../app-deps.ts';
import { noneMatchHits } from '../conditional.ts';
import { partnerOf, pathParam } from '../request-context.ts';
import { route, routeModule } from '../route.ts';
import { ref } from '../../openapi/types.ts';

/** One or more overall statuses, comma-separated: `at_risk,non_compliant`. */
const statusList: FieldParser<OverallStatus[]> = Object.assign(
  (input: unknown, loc: (string | number)[]) => {
    if (typeof input !== 'string') return { ok: false as const, issues: [issues.stringType(loc, input)] };
    const parts = input.split(',').map((s) => s.trim());
    const bad = parts.find((s) => !(OVERALL_STATUSES as readonly string[]).includes(s));
    return bad === undefined
      ? { ok: true as const, value: [...new Set(parts)] as OverallStatus[] }
      : { ok: false as const, issues: [issues.literalError(loc, input, OVERALL_STATUSES)] };
  },
  { schema: { type: 'string', pattern: `^(${OVERALL_STATUSES.join('|')})(,(${OVERALL_STATUSES.join('|')}))*$` } },
);

const ON = { parse: onDate, description: `the date to evaluate on, today to today + ${FORECAST_HORIZON_DAYS} days (UTC); default today` };

const LIST_QUERY = {
  on: ON,
  vessel_id: { parse: str({ minLength: 1, maxLength: 128 }), description: 'only crew on this vessel' },
  overall_status: { parse: statusList, description: 'only crew with one of these overall statuses on `on`, comma-separated' },
  changes_within_days: {
    parse: int({ ge: 1, le: FORECAST_HORIZON_DAYS }),
    description: 'only crew whose overall status changes by the calendar within this many days after `on`',
  },
  limit: {
    parse: int({ ge: FLEET_PAGE_LIMIT.min, le: FLEET_PAGE_LIMIT.max }),
    default: FLEET_PAGE_LIMIT.default,
    description: 'page size',
  },
  cursor: {
    parse: str(),
    description:
      "the previous page's `next_cursor`, unchanged. Signed and bound to the partner, the key's mode and the filters " +
      '(left out, they are the cursor\'s): a tampered or foreign cursor is a 422 `value_error` at `["query","cursor"]`.',
  },
};

async function cursorOf(ctx: AppContext, deps: RouteDeps, sent: string | undefined) {
  return sent === undefined ? null : decodeFleetComplianceCursor((await deps.signingKeys()).fleetCursor, sent, partnerOf(ctx));
}

function filtersOf(
  query: { on?: string; vessel_id?: string; overall_status?: OverallStatus[]; changes_within_days?: number },
  today: string,
): FleetComplianceFilters {
  return {
    on: query.on ?? today,
    ...(query.vessel_id !== undefined ? { vesselId: query.vessel_id } : {}),
    ...(query.overall_status !== undefined ? { overallStatuses: query.overall_status } : {}),
    ...(query.changes_within_days !== undefined ? { changesWithinDays: query.changes_within_days } : {}),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const CSV_EXAMPLE =
  'crew_unique_id,position_name,overall_status,medical_fitness status,medical_fitness expiry_date,bst status,bst expiry_date\r\n' +
  'crew_ana,Master,at_risk,expiring,2026-12-01,met,2029-06-30\r\n';

/** The fleet's compliance on a date, and the crew certificate matrix of one vessel (docs/compliance.md). */
export const fleetComplianceRoutes = routeModule('fleet-compliance', [
  route({
    method: 'get',
    path: '/api/v2/employers/me/compliance',
    etag: 'data',
    access: 'partner',
    scopes: { all: ['crew:compliance:read'] },
    query: LIST_QUERY,
    // Filters other than the cursor's make it a foreign cursor, in the same 422 as the other parameters.
    async checkQuery(ctx, query, deps) {
      const found = [onDateIssue(['query', 'on'], query.on, utcDate(deps.clock()))].filter((i) => i !== null);
      if (query.cursor === undefined) return found;
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const given = filtersOf(query, '');
      const clash =
        cursor &&
        (Object.keys(given) as (keyof FleetComplianceFilters)[]).some((k) =>
          k === 'on' ? query.on !== undefined && query.on !== cursor.filters.on : !same(given[k], cursor.filters[k]),
        );
      return !cursor || clash ? [...found, issues.valueError(['query', 'cursor'], query.cursor, 'invalid cursor')] : found;
    },
    doc: {
      operationId: 'listFleetCompliance',
      tags: ['compliance'],
      summary: 'The compliance of every consenting crew member on your vessels, on a date, with the next change',
      description:
        'One item per crew member and vessel (assignment status invited, active or on_leave) of crew who give you compliance ' +
        'consent, ordered by vessel_id then crew_unique_id. Each is evaluated on `on` exactly as the compliance check would be; ' +
        '`next_change` is the first date after `on` (within two years) on which the overall status changes by the calendar alone, ' +
        'the status it changes to and the required rows that cause it, or null. Without `crew:medical:read`, medical rows are shown ' +
        "as they stand today whatever `on` (the page's `medical_on` then gives today) and held there when the next change is worked out, " +
        'so no date reveals a medical expiry. `overall_status` and ' +
        '`changes_within_days` filter after evaluation: a page may hold fewer than `limit` items while `next_cursor` is given.',
      responses: { 200: { description: "A page of the fleet's compliance", schema: 'FleetCompliancePage' } },
    },
    async handle(ctx, { query }, deps) {
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const today = utcDate(deps.clock());
      const filters = cursor?.filters ?? filtersOf(query, today);
      ctx.body = await listFleetCompliancePage(
        deps.db,
        partnerOf(ctx),
        {
          catalogue: deps.readCache.catalogue,
          windowDays: deps.config.complianceWindowDays,
          cursorKey: (await deps.signingKeys()).fleetCursor,
          today,
        },
        { filters, limit: query.limit, after: cursor?.after ?? null },
      );
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/employers/me/vessels/:vessel_id/compliance-matrix',
    // Tagged from the answer's bytes: a data tag would not tell the JSON and the CSV answers apart.
    etag: 'body',
    access: 'partner',
    scopes: { all: ['crew:compliance:read'] },
    query: { on: ON },
    checkQuery(_ctx, query, deps) {
      return Promise.resolve([onDateIssue(['query', 'on'], query.on, utcDate(deps.clock()))].filter((i) => i !== null));
    },
    doc: {
      operationId: 'getComplianceMatrix',
      tags: ['compliance'],
      summary: 'The crew certificate matrix of one of your vessels on a date, as JSON or CSV',
      description:
        'Rows: the crew on the vessel (invited, active or on_leave) who give you compliance consent; columns: the requirement ' +
        'keys of their roles, in the order first met; each cell the status and expiry date on `on`, as the compliance check gives them, ' +
        "or null where the crew member's role lacks the requirement. Without `crew:medical:read`, medical cells keep their status " +
        "but not their expiry, and show the status of today whatever `on` (the JSON's `medical_on` then gives today; the CSV says nothing " +
        'of it). `Accept: text/csv` answers an RFC 4180 file: a header row, one row per crew member, a `<key> status` and a ' +
        '`<key> expiry_date` column per requirement, empty fields for null. A field starting with `=`, `+`, `-`, `@`, a tab or a CR ' +
        "is written with a leading `'` (spreadsheets show it as text, never as a formula), and any field holding a comma, a quote, a CR " +
        'or a LF is quoted.',
      responses: {
        200: {
          description: 'The matrix',
          content: {
            'application/json': { schema: ref('ComplianceMatrix') },
            'text/csv': { schema: { type: 'string' }, example: CSV_EXAMPLE },
          },
        },
      },
      errors: { 404: ['vessel_not_found'] },
    },
    async handle(ctx, { query }, deps) {
      const today = utcDate(deps.clock());
      const matrix = await complianceMatrix(
        deps.db,
        partnerOf(ctx),
        {
          catalogue: deps.readCache.catalogue,
          windowDays: deps.config.complianceWindowDays,
          today,
          matrix: deps.readCache.matrix,
        },
        pathParam(ctx, 'vessel_id'),
        query.on ?? today,
      );
      ctx.vary('Accept');
      if (ctx.accepts('application/json', 'text/csv') !== 'text/csv') {
        ctx.body = matrix;
        return;
      }
      // The conditional helper tags JSON only; the file gets its own tag from its bytes, with the same If-None-Match rule.
      const bytes = Buffer.from(matrixCsv(matrix));
      const etag = `"c${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
      ctx.set('ETag', etag);
      const asked = ctx.get('If-None-Match');
      if (asked && noneMatchHits(asked, etag)) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'text/csv; charset=utf-8; header=present';
      ctx.body = bytes;
    },
  }),
]);
