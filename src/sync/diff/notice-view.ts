import type { ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { crossedNotices, noticeDate } from '../../domain/compliance/notices.ts';
import { SNAPSHOT_SUBJECTS } from '../../domain/event-catalogue.ts';
import { digested, type Digested } from './crew-diff.ts';

/**
 * The notices subject of one partner's view of one crew member: the notices crossed today on the
 * vessels of its fleet, and the dates a further lead time will be crossed (the snapshot's next due
 * date must include them, so an incremental run comes back on that day). A key the partner was
 * sent stays while its date is still ahead, whatever today's evaluation says of it, so a notice is
 * created once even when the documents or the clock move and move back; it leaves the snapshot
 * once its date has come.
 */
export function noticeView(
  evaluations: readonly ComplianceEvaluation[],
  crewUniqueId: string,
  sent: Readonly<Record<string, string>> | undefined,
  options: { today: string; windowDays: number; medicalVisible: boolean; leads: readonly number[] },
): { view: Map<string, Digested>; crossings: string[] } {
  const { build, restriction } = SNAPSHOT_SUBJECTS.notices;
  const view = new Map<string, Digested>();
  const crossings: string[] = [];
  for (const evaluation of evaluations) {
    const found = crossedNotices(evaluation, crewUniqueId, options);
    crossings.push(...found.crossings);
    for (const notice of found.notices) {
      const payload = digested(build(notice));
      view.set(notice.key, notice.medical ? { ...payload, scope: restriction.scope } : payload);
    }
  }
  for (const [key, digest] of Object.entries(sent ?? {})) {
    // Its digest as sent: the diff finds it unchanged and emits nothing, so its payload is never read.
    if (!view.has(key) && noticeDate(key) > options.today) view.set(key, { digest, data: {} });
  }
  return { view, crossings };
}
