import { emptyTally, type PartnerTally } from '../sync/delivery/outcomes.ts';
import { deliveriesPerSecond } from '../domain/sync-run.ts';
import type { SyncSummary } from '../sync/run-sync.ts';

/**
 * `svc sync --json` and `svc sync --dry-run --json`: the run's summary as one JSON object of one
 * shape, snake_case like the table it replaces. Every key is always there: a real run lists
 * nothing under `would_create`/`would_attempt`; a dry run has zero deliveries, its `created` counts
 * what it would create, and `exit_code` is what the process exits with (README, exit codes).
 */
export function syncSummaryJson(summary: SyncSummary, exitCode: number): Record<string, unknown> {
  const delivery = summary.delivery;
  const totals = delivery?.totals ?? emptyTally();
  const perPartner = delivery?.perPartner ?? new Map<string, PartnerTally>();
  const partners = [...new Set([...summary.created.keys(), ...perPartner.keys(), ...summary.held.keys()])].sort();
  return {
    run_id: summary.runId,
    dry_run: summary.dryRun,
    deliver_only: summary.deliverOnly,
    stopped: summary.stopped,
    exit_code: exitCode,
    totals: {
      created: [...summary.created.values()].reduce((a, b) => a + b, 0),
      delivered: totals.delivered,
      retrying: totals.retrying,
      dead_lettered: totals.deadLettered,
      skipped: totals.skipped,
      interrupted: totals.interrupted,
      failed: totals.failed,
      not_started: delivery?.notStarted ?? 0,
      suppressed: totals.suppressed,
      breaker_open: totals.breakerOpen,
      budget_spent: totals.budgetSpent,
      disabled: totals.disabled,
      pruned: summary.pruned,
      audit_pruned: summary.auditPruned,
      files_pruned: summary.filesPruned,
    },
    baselines: summary.baselines,
    phases: phasesJson(summary),
    breakers_opened: delivery?.breakersOpened ?? [],
    endpoints_failing: summary.unhealthy.failing,
    endpoints_disabled: summary.unhealthy.disabled,
    budget_spent: delivery?.budgetSpent ?? false,
    partners: partners.map((partnerId) => {
      const tally = perPartner.get(partnerId);
      return {
        partner_id: partnerId,
        created: summary.created.get(partnerId) ?? 0,
        delivered: tally?.delivered ?? 0,
        retrying: tally?.retrying ?? 0,
        dead_lettered: tally?.deadLettered ?? 0,
        suppressed: tally?.suppressed ?? 0,
        held: summary.held.get(partnerId) ?? 0,
      };
    }),
    errors: (delivery?.errors ?? []).map((e) => ({ event_id: e.eventId, message: e.message })),
    would_create: summary.planned.map((e) => ({
      partner_id: e.partnerId,
      event_type: e.eventType,
      crew_unique_id: e.crewUniqueId,
      note: e.note ?? null,
    })),
    would_attempt: summary.due.map((e) => ({
      event_id: e.eventId,
      partner_id: e.partnerId,
      event_type: e.eventType,
      attempt: e.attempts + 1,
      url: e.url,
    })),
  };
}

/** Where the run's time went (docs/operations.md, "Where a run's time went"). */
export function phasesJson(summary: SyncSummary): Record<string, number> {
  const { seconds, pages } = summary.phases;
  const delivered = summary.delivery?.totals.delivered ?? 0;
  return {
    read_seconds: seconds.read,
    diff_seconds: seconds.diff,
    write_seconds: seconds.write,
    deliver_seconds: seconds.deliver,
    deliveries_per_second: Math.round(deliveriesPerSecond(delivered, summary.phases) * 10) / 10,
    pages,
    events: [...summary.created.values()].reduce((a, b) => a + b, 0),
  };
}

/** The same as one line of the printed summary: `phases: read 1.2 s, diff 3.4 s, … (634 deliveries/s), 12 pages, 300 events`. */
export function phasesLine(summary: SyncSummary): string {
  const p = phasesJson(summary);
  return (
    `phases: read ${p.read_seconds} s, diff ${p.diff_seconds} s, write ${p.write_seconds} s, ` +
    `deliver ${p.deliver_seconds} s (${p.deliveries_per_second} deliveries/s), ${p.pages} pages, ${p.events} events`
  );
}
