import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../../config/config.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Spans } from '../../services/plumbing/spans.ts';
import { systemResolver } from '../../services/webhooks/destination.ts';
import { pinnedFetch } from '../../services/webhooks/pinned-fetch.ts';
import { BREAKER_FAILURES, type DeliveryProgress, type EventReport } from './outcomes.ts';
import type { AttemptTransport } from '../send-attempt.ts';

export type { DeliveryProgress, PartnerTally } from './outcomes.ts';

/**
 * Everything the delivery engine takes from outside, so tests run it on loopback with a fixed
 * clock and without really waiting.
 */
export interface DeliveryDeps extends AttemptTransport {
  /** Waits between in-run attempts, cut short when `signal` aborts (tests pass one that returns at once). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1): the jitter of in-run waits. */
  random: () => number;
  /** Events delivered at the same time, over all endpoints. */
  concurrency: number;
  /** Events delivered at the same time to one endpoint, so a slow partner holds up only itself. */
  perEndpointConcurrency: number;
  /** How long a run's claim on an event lasts; longer than the in-run attempts and waits together. */
  claimMs: number;
  /**
   * The run's delivery time budget, by `clock`: once spent, nothing more is claimed or started and
   * the run ends with its summary (SVC_SYNC_DELIVERY_BUDGET_MS).
   */
  budgetMs: number;
  /** Consecutive failed attempts to one endpoint after which the run stops sending to it (its circuit breaker opens). */
  breakerFailures: number;
  /** Days an endpoint may fail every attempt before the record stage disables it (SVC_WEBHOOK_DISABLE_AFTER_DAYS). */
  disableAfterDays: number;
  /**
   * The real time, for the signature timestamp (X-Service-Timestamp) alone: a receiver checks it
   * against its own clock, so it never follows SVC_NOW, which `clock` (event, attempt and retry
   * times, the claims, the secret-rotation switch) does.
   */
  wallClock: Clock;
  onProgress?: (progress: DeliveryProgress) => void;
  /** Told what the run did with each event as it ends; the run's report keeps counts only. */
  onEventEnded?: (event: EventReport) => void;
  /**
   * Aborted when the run is asked to stop (SIGINT/SIGTERM): claim nothing more and make no further
   * in-run attempt; attempts in flight go on until `cancel` (AttemptTransport) aborts them.
   */
  drain?: AbortSignal;
  /** A span per run, diff page and attempt when tracing is on (src/services/plumbing/spans.ts); absent: none. */
  spans?: Spans;
}

export const DEFAULT_CLAIM_MS = 5 * 60_000;

/**
 * Delivery deps for the real world, from the Config; `overrides` replace any of them. `clock` is
 * the business clock (starting at SVC_NOW when set), `wallClock` the real one the signatures carry.
 * Unless a fetch is given, connections are pinned to addresses checked with the (possibly
 * overridden) resolver, on every attempt (src/services/webhooks/pinned-fetch.ts).
 */
export function deliveryDepsFromConfig(
  config: Config,
  clocks: { clock: Clock; wallClock: Clock },
  overrides: Partial<DeliveryDeps> = {},
): DeliveryDeps {
  const resolve = overrides.resolve ?? systemResolver;
  const allowInsecure = overrides.allowInsecure ?? config.allowInsecureWebhooks;
  return {
    fetch: overrides.fetch ?? pinnedFetch({ allowInsecure }, resolve),
    resolve,
    clock: clocks.clock,
    wallClock: clocks.wallClock,
    timeoutMs: config.webhookTimeoutMs,
    allowInsecure,
    sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => {}),
    random: Math.random,
    concurrency: config.webhookConcurrency,
    perEndpointConcurrency: config.webhookConcurrencyPerEndpoint,
    claimMs: DEFAULT_CLAIM_MS,
    budgetMs: config.syncDeliveryBudgetMs,
    breakerFailures: BREAKER_FAILURES,
    disableAfterDays: config.webhookDisableAfterDays,
    ...overrides,
  };
}
