/*
 * What delivery can do with one claimed event, as values: every stage returns one of these and the
 * run counts them (docs/architecture.md, "Delivery stages"). Exceptions are left for the
 * unexpected (a store error), which the run reports apart.
 */

/**
 * How a run ended with one event:
 * - `delivered`: a 2xx; `dead`: dead-lettered (a permanent failure, or the 8th attempt);
 * - `retry`: attempted and failed, due again later (its next time is stored);
 * - `suppressed`: refused by the access rule when due; ended, never sent;
 * - `breaker_open`, `budget_spent`, `disabled`, `not_started`: not attempted by this run (the
 *   endpoint's breaker opened, the run's time budget ran out, the endpoint was disabled, the run was
 *   asked to stop); the claim is released and no attempt is used;
 * - `interrupted`: in flight when the stopping run gave up on it; nothing stored;
 * - `claim_lost`: another deliverer took the event over; this run stored nothing more for it.
 */
export const EVENT_OUTCOMES = [
  'delivered',
  'retry',
  'dead',
  'suppressed',
  'breaker_open',
  'budget_spent',
  'disabled',
  'not_started',
  'interrupted',
  'claim_lost',
] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

/** Why a run stops sending to an endpoint before its events are done. */
export type StopReason = Extract<EventOutcome, 'breaker_open' | 'budget_spent' | 'disabled' | 'not_started'>;

/**
 * Consecutive failed attempts (timeouts, network errors, 5xx, 3xx, 408, 429) after which a run
 * stops sending to an endpoint: its circuit breaker opens for the rest of the run. Five lets one
 * event's three in-run attempts and a neighbour's fail without giving up on a flaky endpoint.
 */
export const BREAKER_FAILURES = 5;

/** What a run did with one event. */
export interface EventReport {
  eventId: string;
  partnerId: string;
  eventType: string;
  outcome: EventOutcome;
  /** Attempts this run made. */
  attempts: number;
}

/** Per-partner counts of what a delivery run did. */
export interface PartnerTally {
  delivered: number;
  retrying: number;
  deadLettered: number;
  /** Refused by the access rule when due: ended without being sent. */
  suppressed: number;
  /** Not attempted: the endpoint's circuit breaker was open. */
  breakerOpen: number;
  /** Not attempted: the run's delivery time budget was spent. */
  budgetSpent: number;
  /** Not attempted: the endpoint was disabled during the run. */
  disabled: number;
  /** Claimed by another deliverer first: not attempted by this run. */
  skipped: number;
  /** In flight when the run was stopped and not finished within the grace period: nothing stored, claim released. */
  interrupted: number;
  /** A store error stopped the event's delivery; it stays pending. */
  failed: number;
}

export function emptyTally(): PartnerTally {
  return {
    delivered: 0,
    retrying: 0,
    deadLettered: 0,
    suppressed: 0,
    breakerOpen: 0,
    budgetSpent: 0,
    disabled: 0,
    skipped: 0,
    interrupted: 0,
    failed: 0,
  };
}

/** The tally an outcome counts in; `not_started` is counted by the run as a whole (`notStarted`). */
export const TALLY_OF: Record<Exclude<EventOutcome, 'not_started'>, keyof PartnerTally> = {
  delivered: 'delivered',
  retry: 'retrying',
  dead: 'deadLettered',
  suppressed: 'suppressed',
  breaker_open: 'breakerOpen',
  budget_spent: 'budgetSpent',
  disabled: 'disabled',
  interrupted: 'interrupted',
  claim_lost: 'skipped',
};

/**
 * What one delivery run did, counted per partner: counts only, so a run's memory does not grow with
 * the events it delivers (each event's report goes to `DeliveryDeps.onEventEnded` as it ends).
 */
export interface DeliveryReport {
  runId: string;
  /** Events due when the run started. */
  due: number;
  /** Events the run ended one way or another (every outcome, `not_started` too). */
  ended: number;
  perPartner: Map<string, PartnerTally>;
  totals: PartnerTally;
  /** Why a store error stopped an event's delivery, or a partner's claims (eventId null). */
  errors: { partnerId: string; eventId: string | null; message: string }[];
  /** Due events left for a later run because it was asked to stop (`drain`). */
  notStarted: number;
  /** Endpoints (by partner) whose circuit breaker opened during the run. */
  breakersOpened: string[];
  /** The run's delivery time budget ran out before everything due was done. */
  budgetSpent: boolean;
}

/** Progress of a delivery run, after each event. */
export interface DeliveryProgress {
  done: number;
  total: number;
  totals: PartnerTally;
}
