import { emptyTally, type PartnerTally } from '../sync/delivery/outcomes.ts';
import type { SyncSummary } from '../sync/run-sync.ts';

/**
 * `svc sync --json` and `svc sync --dry-run --json`: the run's summary as one JSON object of one
 * shape, snake_case like the table it replaces. Every key is always there: a real run lists
 * nothing under `would_create`/`would_attempt`; a dry run has zero deliveries, its `created` counts
 * what it would create, and `exit_code` is what the process exits with (README, exit codes).
 */
export function syncSummaryJson(s: SyncSummary, exitCode: number): Record<string, unknown> {
  const d = s.delivery;
  const t = d?.totals ?? emptyTally();
  const perPartner = d?.perPartner ?? new Map<string, PartnerTally>();
  const partners = [...new Set([...s.created.keys(), ...perPartner.keys(), ...s.held.keys()])].sort();
  return {
    run_id: s.runId,
    dry_run: s.dryRun,
    stopped: s.stopped,
    exit_code: exitCode,
    totals: {
      created: [...s.created.values()].reduce((a, b) => a + b, 0),
      delivered: t.delivered, retrying: t.retrying, dead_lettered: t.deadLettered, skipped: t.skipped,
      interrupted: t.interrupted, failed: t.failed, not_started: d?.notStarted ?? 0, suppressed: t.suppressed,
      breaker_open: t.breakerOpen, budget_spent: t.budgetSpent, disabled: t.disabled,
    },
    breakers_opened: d?.breakersOpened ?? [],
    budget_spent: d?.budgetSpent ?? false,
    partners: partners.map((p) => {
      const tally = perPartner.get(p);
      return {
        partner_id: p, created: s.created.get(p) ?? 0, delivered: tally?.delivered ?? 0, retrying: tally?.retrying ?? 0,
        dead_lettered: tally?.deadLettered ?? 0, suppressed: tally?.suppressed ?? 0, held: s.held.get(p) ?? 0,
      };
    }),
    errors: (d?.errors ?? []).map((e) => ({ event_id: e.eventId, message: e.message })),
    would_create: s.planned.map((e) => ({ partner_id: e.partnerId, event_type: e.eventType, crew_unique_id: e.crewUniqueId, note: e.note ?? null })),
    would_attempt: s.due.map((e) => ({ event_id: e.eventId, partner_id: e.partnerId, event_type: e.eventType, attempt: e.attempts + 1, url: e.url })),
  };
}
