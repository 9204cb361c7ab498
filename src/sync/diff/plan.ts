import type { Clock } from '../../domain/clock.ts';
import { EVENTS_OF_SUBJECT, SNAPSHOT_SUBJECT_NAMES, subjectAccess, type SnapshotSubject } from '../../domain/event-catalogue.ts';
import type { PlannedEvent } from '../../domain/events.ts';
import type { Vessel } from '../../domain/fleet.ts';
import { fleetOf, type Partner } from '../../domain/partner.ts';
import { effectiveScopes } from '../../domain/scopes.ts';
import { noticeLeadDaysOf } from '../../domain/webhooks.ts';
import type { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import type { Db } from '../../store/database.ts';
import { listFleetVessels } from '../../store/repositories/fleet-repo.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { findSyncState } from '../../store/repositories/sync-state-repo.ts';
import { listEndpoints } from '../../store/repositories/webhook-endpoints-repo.ts';
import type { Spans } from '../../services/plumbing/spans.ts';
import type { PhaseTimes } from '../phase-times.ts';

/** What the diff needs besides the store. */
export interface DiffDeps {
  clock: Clock;
  catalogue: CatalogueCache;
  windowDays: number;
  /** Crew members per page (one read of each kind and one transaction per page). */
  pageSize?: number;
  newEventId?: () => string;
  /** Compute and report, write nothing. */
  dryRun?: boolean;
  /** Re-diff every pair of every partner, whatever changed (`svc sync --full`). */
  full?: boolean;
  /** Captured changes read per chunk of the incremental pass. */
  changeChunk?: number;
  /**
   * Longest wait, in real milliseconds, for transactions older than the newest committed change to
   * end before the run reads anything (settledReadBound); default SETTLE_MS (run-diff.ts).
   */
  settleMs?: number;
  /** Aborted when the run is asked to stop: the diff ends at the next page boundary (runDiff). */
  signal?: AbortSignal;
  /** Counts the time of each page's diff and write, and the pages committed (src/sync/phase-times.ts). */
  phases?: PhaseTimes;
  /** A span per page written, when tracing is on. */
  spans?: Spans;
  /** The run (or diff worker) diffing: it names the claims of shares it takes (src/sync/diff/shares.ts). */
  runId?: string;
  /** Split the partners into this many shares, claimed by this run and by diff workers (`svc sync --diff-processes`); default 1. */
  shares?: number;
  /** Real time, for how long a share's claim holds (default: the system clock). */
  wallClock?: Clock;
  /** A share's claim lapses after this many real milliseconds without its holder renewing it (default SHARE_CLAIM_MS). */
  shareClaimMs?: number;
  /** Real milliseconds between two looks at a round's shares (default SHARE_POLL_MS). */
  sharePollMs?: number;
  /** A diff worker waits this many real milliseconds, at most, for a round to open (default JOIN_WAIT_MS). */
  joinWaitMs?: number;
}

/** Per partner: whether this run recorded the baseline, how many crew it saw, events by type. */
export interface PartnerDiffResult {
  partnerId: string;
  baseline: boolean;
  /** Whether this run diffed all its crew (first run, fleet-wide change, `full`) rather than what changed. */
  full: boolean;
  crew: number;
  events: Record<string, number>;
  /** Only on a dry run: the events that would be written. */
  planned?: PlannedEvent[];
}

/** One partner with an active endpoint, as the diff sees it for this run. */
export interface PartnerPlan {
  partner: Partner;
  subscribed: ReadonlySet<string>;
  /** No baseline yet: this run records one and sends nothing. */
  baseline: boolean;
  /** Live vessels of its fleet. */
  vessels: ReadonlySet<string>;
  /** The subjects of the event catalogue whose scope it holds, in catalogue order. */
  subjects: readonly SnapshotSubject[];
  /**
   * The lead times, in days, of its compliance notices (src/domain/compliance/notices.ts); none when
   * its endpoint does not subscribe to them: no notice is worked out for it (docs/decisions.md, "Sync").
   */
  noticeLeadDays: readonly number[];
  /** It holds crew:medical:read: medical-class documents and details are visible to it. */
  medical: boolean;
  result: PartnerDiffResult;
}

/** Every partner with an active endpoint, with its scopes and live fleet; plus all their vessels. */
export async function planPartners(db: Db, dryRun: boolean): Promise<{ plans: PartnerPlan[]; vessels: Map<string, Vessel> }> {
  const plans: PartnerPlan[] = [];
  const vessels = new Map<string, Vessel>();
  for (const endpoint of await listEndpoints(db, { status: 'active' })) {
    const partner = await findPartner(db, endpoint.partnerId);
    if (!partner) continue;
    const scopes = new Set<string>(effectiveScopes(partner));
    const fleet = await listFleetVessels(db, fleetOf(partner, 'live'));
    for (const vessel of fleet) vessels.set(vessel.vesselId, vessel);
    const baseline = !(await findSyncState(db, partner.partnerId));
    plans.push({
      partner,
      subscribed: new Set(endpoint.subscribedEvents),
      baseline,
      vessels: new Set(fleet.map((vessel) => vessel.vesselId)),
      subjects: SNAPSHOT_SUBJECT_NAMES.filter((subject) => scopes.has(subjectAccess(subject).scope)),
      noticeLeadDays: EVENTS_OF_SUBJECT.notices.some((type) => endpoint.subscribedEvents.includes(type)) ? noticeLeadDaysOf(endpoint) : [],
      medical: scopes.has('crew:medical:read'),
      result: { partnerId: partner.partnerId, baseline, full: false, crew: 0, events: {}, ...(dryRun ? { planned: [] } : {}) },
    });
  }
  return { plans, vessels };
}
