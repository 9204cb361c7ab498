import { addDays } from './dates.ts';
import { nextStatusChangeFrom } from './status-calendar.ts';
import type { StatusChange } from './status-forecast.ts';
import type { ComplianceEvaluation, OverallStatus } from './types.ts';

/*
 * Compliance notices ahead of time (docs/webhooks.md, "crew.compliance.upcoming"): the first change
 * the calendar alone brings to a crew member's overall status on a vessel (the fleet compliance
 * list's `next_change`, worked out the same way), announced once per lead time when
 * today + lead >= the change's date.
 */

/** The lead times, in days, an endpoint gets notices at unless it chose others. */
export const DEFAULT_NOTICE_LEAD_DAYS = [90, 60, 30] as const;

/** The longest lead time an endpoint may choose: a year (changes are looked for two years ahead). */
export const MAX_NOTICE_LEAD_DAYS = 365;

/** The data of a crew.compliance.upcoming event. */
export interface ComplianceUpcomingPayload {
  crew_unique_id: string;
  vessel_id: string;
  /** YYYY-MM-DD: the first day with the new status. */
  on: string;
  overall_status: OverallStatus;
  requirement_keys: string[];
  lead_days: number;
}

/** One notice: the key the snapshot keeps it under, its payload, and whether it reveals a medical date. */
export interface Notice {
  key: string;
  data: ComplianceUpcomingPayload;
  medical: boolean;
}

/** A notice's snapshot key: `<vessel_id>|<date>|<lead>`; the date is the key's second part (noticeDate). */
export function noticeKey(vesselId: string, on: string, lead: number): string {
  return `${vesselId}|${on}|${lead}`;
}

/** The change date a notice key names. */
export function noticeDate(key: string): string {
  const parts = key.split('|');
  return parts[parts.length - 2]!;
}

const isMedical = (row: { group: string }) => row.group === 'medical';

/**
 * The next change as a key with or without crew:medical:read would be shown it: without, medical
 * rows are held at their status today, so neither the date nor the keys reveal them (the rule of
 * the check on a date, docs/decisions.md §6). `medical` is true when the change shown to a key
 * with crew:medical:read differs from the one shown without: the notice then needs that scope
 * when it is sent.
 */
export function upcomingChange(
  evaluation: ComplianceEvaluation,
  today: string,
  windowDays: number,
  medicalVisible: boolean,
): { change: StatusChange | null; medical: boolean } {
  const hidden = nextStatusChangeFrom(evaluation, today, { windowDays, hidden: isMedical });
  if (!medicalVisible) return { change: hidden, medical: false };
  const change = nextStatusChangeFrom(evaluation, today, { windowDays });
  return { change, medical: JSON.stringify(change) !== JSON.stringify(hidden) };
}

/**
 * The notices crossed today for one crew member on one vessel, and the dates (after today) at
 * which a further lead time will be crossed, for the snapshot's next due date.
 */
export function crossedNotices(
  evaluation: ComplianceEvaluation,
  crewUniqueId: string,
  options: { today: string; windowDays: number; medicalVisible: boolean; leads: readonly number[] },
): { notices: Notice[]; crossings: string[] } {
  const { change, medical } = upcomingChange(evaluation, options.today, options.windowDays, options.medicalVisible);
  const vesselId = evaluation.vesselId;
  if (!change) return { notices: [], crossings: [] };
  const notices: Notice[] = [];
  const crossings: string[] = [];
  for (const lead of options.leads) {
    const from = addDays(change.on, -lead);
    if (from > options.today) {
      crossings.push(from);
      continue;
    }
    notices.push({
      key: noticeKey(vesselId, change.on, lead),
      data: {
        crew_unique_id: crewUniqueId,
        vessel_id: vesselId,
        on: change.on,
        overall_status: change.overallStatus,
        requirement_keys: change.requirementKeys,
        lead_days: lead,
      },
      medical,
    });
  }
  return { notices, crossings };
}
