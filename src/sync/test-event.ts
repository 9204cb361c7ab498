import { v7 as uuidv7 } from 'uuid';
import { AppError } from '../domain/app-error.ts';
import { attemptErrorClass } from '../domain/attempt-errors.ts';
import { wireTime, type Clock } from '../domain/clock.ts';
import { SCHEMA_VERSION, TEST_EVENT_TYPE } from '../domain/vocabulary.ts';
import type { TestDelivery, WebhookTester } from '../services/webhooks/test-delivery.ts';
import type { Db } from '../store/database.ts';
import { insertDeliveryAttempts } from '../store/repositories/delivery-repo.ts';
import { insertTestEvent } from '../store/repositories/outbox-repo.ts';
import { findPartner } from '../store/repositories/partners-repo.ts';
import { findEndpointByPartner } from '../store/repositories/webhook-endpoints-repo.ts';
import { judgeAttempt } from './failure-policy.ts';
import { sendAttempt, type AttemptTransport } from './send-attempt.ts';
import { deliveryHeaders } from './signing.ts';

/** What a test delivery needs besides the store: the transport of real deliveries, and the real clock the signature carries. */
export interface TestEventDeps extends AttemptTransport {
  wallClock: Clock;
  newEventId?: () => string;
}

/**
 * A WebhookTester over the store: reads the partner's endpoint as it stands (URL, secrets; also a
 * disabled one, which an operator may test before re-enabling it), signs a `svc.test` envelope
 * exactly as a delivery is signed, sends it once through the same transport (destination policy,
 * timeout, no redirects) and stores the event and its attempt. The event is stored `delivered` or
 * `dead` and never retried; no dead letter is written and the endpoint's health is not touched.
 */
export function webhookTester(db: Db, deps: TestEventDeps): WebhookTester {
  return async (partnerId: string): Promise<TestDelivery> => {
    if (!(await findPartner(db, partnerId))) throw new AppError('partner_not_found', `no partner with id "${partnerId}"`);
    const endpoint = await findEndpointByPartner(db, partnerId);
    if (!endpoint) throw new AppError('not_found', `partner ${partnerId} has no webhook endpoint; register one first`);
    const eventId = (deps.newEventId ?? (() => `evt_${uuidv7()}`))();
    const at = deps.clock();
    const body = JSON.stringify({
      schema_version: SCHEMA_VERSION,
      event_id: eventId,
      event_type: TEST_EVENT_TYPE,
      occurred_at: wireTime(at),
      partner_id: partnerId,
      data: { message: 'A test delivery from svc: it carries no crew data. Answer 2xx.' },
    });
    const headers = deliveryHeaders(
      endpoint,
      { eventId, eventType: TEST_EVENT_TYPE },
      at,
      Math.floor(deps.wallClock().getTime() / 1000),
      body,
    );
    const result = await sendAttempt(endpoint.url, headers, body, deps);
    const delivered = judgeAttempt(result) === 'delivered';
    const attemptedAt = at.toISOString();
    await db.transaction().execute(async (trx) => {
      await insertTestEvent(trx, { eventId, partnerId, at: attemptedAt, body, delivered });
      await insertDeliveryAttempts(trx, [
        {
          eventId,
          attemptNo: 1,
          attemptedAt,
          url: endpoint.url,
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          error: result.error,
          responseBody: result.responseBody,
          outcome: delivered ? 'delivered' : 'failed_permanent',
        },
      ]);
    });
    return {
      eventId,
      partnerId,
      url: endpoint.url,
      attemptedAt,
      statusCode: result.statusCode,
      error: result.error,
      errorClass: attemptErrorClass(result.error, result.statusCode),
      latencyMs: result.latencyMs,
      delivered,
    };
  };
}
