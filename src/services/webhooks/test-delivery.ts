import { wireTime } from '../../domain/clock.ts';
import type { AttemptErrorClass } from '../../domain/vocabulary.ts';

/**
 * One test delivery to a partner's endpoint (docs/webhooks.md, "Testing an endpoint"): a signed
 * `svc.test` event carrying no crew data, sent once (never retried) and stored with its attempt
 * like any delivery. `svc admin send-test-event` and the operator route show it.
 */
export interface TestDelivery {
  eventId: string;
  partnerId: string;
  url: string;
  attemptedAt: string;
  /** What the endpoint answered; null when no answer arrived (then `error` says why). */
  statusCode: number | null;
  error: string | null;
  errorClass: AttemptErrorClass | null;
  latencyMs: number;
  delivered: boolean;
}

/** Sends one test delivery to the partner's endpoint (throws partner_not_found, or not_found without an endpoint). */
export type WebhookTester = (partnerId: string) => Promise<TestDelivery>;

export interface TestDeliveryWire {
  event_id: string;
  partner_id: string;
  url: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  error_class: AttemptErrorClass | null;
  duration_ms: number;
  delivered: boolean;
}

export function toTestDeliveryWire(t: TestDelivery): TestDeliveryWire {
  return {
    event_id: t.eventId,
    partner_id: t.partnerId,
    url: t.url,
    attempted_at: wireTime(t.attemptedAt),
    status_code: t.statusCode,
    error: t.error,
    error_class: t.errorClass,
    duration_ms: t.latencyMs,
    delivered: t.delivered,
  };
}
