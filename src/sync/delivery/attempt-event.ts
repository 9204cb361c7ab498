import type { Kysely } from 'kysely';
import type { OutboxEvent } from '../../domain/webhooks.ts';
import { NO_SPANS, type SpanNotes } from '../../services/plumbing/spans.ts';
import type { Database } from '../../store/database.ts';
import { releaseEvents, renewClaim } from '../../store/repositories/outbox-repo.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import { attemptsThisRun, decideAfterAttempt, endpointGone, IN_RUN_ATTEMPTS, judgeAttempt, MAX_IN_RUN_WAIT_MS } from '../failure-policy.ts';
import { sendAttempt } from '../send-attempt.ts';
import { checkAccess } from './check-access.ts';
import type { EventOutcome, StopReason } from './outcomes.ts';
import type { RecordStage } from './record.ts';
import type { SendGate } from './send-gate.ts';
import { signAttempt } from './sign.ts';

/** What one event's attempts need from its lane. */
export interface LaneHandle {
  db: Kysely<Database>;
  deps: DeliveryDeps;
  runId: string;
  record: RecordStage;
  /** Asked as each attempt starts: may the event go, and to which endpoint (URL, secrets) as it stands now. */
  gate: SendGate;
  /**
   * A request slot for this endpoint (the run's fair share, and the endpoint's limit across
   * processes); resolves with its release, or holding less once `stopReason()` is set.
   */
  acquire(): Promise<() => void>;
  /** Why the lane must not start another attempt now, or null. */
  stopReason(): StopReason | null;
  /** Tells the endpoint's circuit breaker how an attempt went. */
  noteAttempt(failed: boolean): void;
  /** The record stage disabled the endpoint for failing too long: the lane starts nothing more. */
  endpointDisabled(): void;
}

/**
 * Time an event needs left on its claim when an attempt starts: every in-run attempt and the
 * longest waits between them. An event that waited longer has its claim renewed first, so it is
 * never sent under a claim that may lapse (and be taken by another deliverer) before it is stored.
 */
function startBudgetMs(deps: DeliveryDeps): number {
  return IN_RUN_ATTEMPTS * deps.timeoutMs + (IN_RUN_ATTEMPTS - 1) * MAX_IN_RUN_WAIT_MS;
}

/** Where an event's attempts stand between two of them. */
interface AttemptState {
  made: number;
  lockedUntil: number;
}

/** How one attempt ended: the event's outcome, or another attempt after `againAfterMs`. */
type AttemptStep = { done: EventOutcome } | { againAfterMs: number };

/**
 * Attempts one claimed event that passed the batch's access check: each attempt (the first and
 * every in-run retry) is judged by the gate as it starts, then signed with the endpoint's secrets
 * as they stand then, sent to its URL as it stands then, and recorded. Returns how it ended and
 * how many attempts it made; releases the claim unless the event was delivered, dead-lettered or
 * suppressed. Throws only on a store error (the event then stays pending). Each attempt is a span
 * (docs/operations.md, "Traces"): the partner, the event type, the outcome and the status code.
 */
export async function attemptEvent(lane: LaneHandle, event: OutboxEvent): Promise<{ outcome: EventOutcome; made: number }> {
  const { db, deps, runId } = lane;
  const spans = deps.spans ?? NO_SPANS;
  const state: AttemptState = { made: 0, lockedUntil: Date.parse(event.lockedUntil!) };
  let outcome: EventOutcome = 'retry';
  try {
    for (;;) {
      const facts = {
        'svc.run_id': runId,
        'svc.partner_id': event.partnerId,
        'svc.event_type': event.eventType,
        'svc.event_id': event.eventId,
        'svc.attempt_no': event.attempts + state.made + 1,
      };
      const step = await spans.span('svc.delivery.attempt', facts, (notes) => attemptOnce(lane, event, state, notes));
      if ('done' in step) {
        outcome = step.done;
        return { outcome, made: state.made };
      }
      await deps.sleep(step.againAfterMs, deps.drain);
    }
  } finally {
    // Delivered, dead and suppressed events had their claim cleared with their last write.
    if (!['delivered', 'dead', 'suppressed', 'claim_lost'].includes(outcome)) await releaseEvents(db, [event.eventId], runId);
  }
}

/** One attempt, from taking a request slot to storing what came back; its span is told the outcome. */
async function attemptOnce(lane: LaneHandle, event: OutboxEvent, state: AttemptState, notes: SpanNotes): Promise<AttemptStep> {
  const step = await sendAndRecord(lane, event, state, notes);
  notes.set({ 'svc.outcome': 'done' in step ? step.done : 'retry' });
  return step;
}

async function sendAndRecord(lane: LaneHandle, event: OutboxEvent, state: AttemptState, notes: SpanNotes): Promise<AttemptStep> {
  const { db, deps, runId } = lane;
  const done = (outcome: EventOutcome): AttemptStep => ({ done: outcome });
  const release = await lane.acquire();
  let sent;
  try {
    // A run that stops, an open breaker or a spent budget make no further attempt; one made
    // already set when the event is due next.
    const stop = lane.stopReason();
    if (stop) return done(state.made === 0 ? stop : 'retry');
    const now = deps.clock().getTime();
    if (now > state.lockedUntil - startBudgetMs(deps)) {
      state.lockedUntil = now + deps.claimMs;
      if (!(await renewClaim(db, event.eventId, runId, new Date(state.lockedUntil).toISOString()))) return done('claim_lost');
    }
    // The attempt starts here: whatever was committed before this check applies to it.
    const checked = await checkAccess(db, runId, deps.clock(), [event], await lane.gate.judgeAttempt(event));
    if (!checked) {
      lane.endpointDisabled();
      return done(state.made === 0 ? 'disabled' : 'retry');
    }
    if (checked.suppressed.length > 0) return done('suppressed');
    if (checked.lost.length > 0) return done('claim_lost');
    const at = deps.clock();
    const headers = signAttempt(event, checked.endpoint, at, deps.wallClock);
    sent = { at, url: checked.endpoint.url, result: await sendAttempt(checked.endpoint.url, headers, event.body, deps) };
  } finally {
    release();
  }
  notes.set({ 'http.response.status_code': sent.result.statusCode });
  // No answer because the stopping run gave up waiting: not an attempt the partner's record should count.
  if (sent.result.statusCode === null && deps.cancel?.aborted) return done('interrupted');
  const attemptNo = event.attempts + state.made + 1;
  state.made += 1;
  const decision = decideAfterAttempt(attemptNo, sent.result, deps.random);
  lane.noteAttempt(judgeAttempt(sent.result) === 'retry');
  // Gone: this lane starts nothing more at once, not only once the recorded disabling commits.
  if (endpointGone(sent.result)) lane.endpointDisabled();
  const stored = await lane.record({
    runId,
    event,
    url: sent.url,
    attempt: { attemptNo, at: sent.at, result: sent.result, decision },
  });
  if (stored === 'claim_lost') return done('claim_lost');
  if (stored === 'endpoint_disabled') lane.endpointDisabled();
  if (decision.outcome === 'delivered') return done('delivered');
  if (decision.outcome !== 'retry') return done('dead');
  // A wait longer than a run should hold (a long Retry-After) is left to a later run.
  if (state.made >= attemptsThisRun(event.attempts) || decision.waitMs > MAX_IN_RUN_WAIT_MS || lane.stopReason()) return done('retry');
  return { againAfterMs: decision.waitMs };
}
