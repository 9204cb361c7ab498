import type { SyncSummary } from '../sync/run-sync.ts';

/**
 * `svc sync --json`: the run's summary as one JSON object, snake_case like the table it replaces.
 * A dry run lists what it would create and attempt; a real run its totals, one entry per partner
 * and the events a store error kept from delivery.
 */
export function syncSummaryJson(s: SyncSummary): Record<string, unknown> {
  if (s.dryRun) {
    return {
      run_id: s.runId,
      dry_run: true,
      would_create: s.planned.map((e) => ({ partner_id: e.partnerId, event_type: e.eventType, crew_unique_id: e.crewUniqueId, note: e.note ?? null })),
      would_attempt: s.due.map((e) => ({ event_id: e.eventId, partner_id: e.partnerId, event_type: e.eventType, attempt: e.attempts + 1, url: e.url })),
    };
  }
  const d = s.delivery!;
  const t = d.totals;
  const partners = [...new Set([...s.created.keys(), ...d.perPartner.keys(), ...s.held.keys()])].sort();
  return {
    run_id: s.runId,
    dry_run: false,
    stopped: s.stopped,
    totals: {
      created: [...s.created.values()].reduce((a, b) => a + b, 0),
      delivered: t.delivered, retrying: t.retrying, dead_lettered: t.deadLettered, skipped: t.skipped,
      interrupted: t.interrupted, failed: t.failed, not_started: d.notStarted, suppressed: t.suppressed,
      breaker_open: t.breakerOpen, budget_spent: t.budgetSpent, disabled: t.disabled,
    },
    breakers_opened: d.breakersOpened,
    budget_spent: d.budgetSpent,
    partners: partners.map((p) => {
      const tally = d.perPartner.get(p);
      return {
        partner_id: p, created: s.created.get(p) ?? 0, delivered: tally?.delivered ?? 0, retrying: tally?.retrying ?? 0,
        dead_lettered: tally?.deadLettered ?? 0, suppressed: tally?.suppressed ?? 0, held: s.held.get(p) ?? 0,
      };
    }),
    errors: d.errors.map((e) => ({ event_id: e.eventId, message: e.message })),
  };
}
