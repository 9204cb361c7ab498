import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { checkWebhookBody, checkWebhookDelivery, openApiDocument } from '../support/openapi-check.ts';

const STATUS_EVENT = {
  schema_version: 1,
  event_id: 'evt_0b6f',
  event_type: 'crew.status.changed',
  occurred_at: '2026-11-22T10:00:00Z',
  partner_id: 'ptn_a',
  data: { crew_unique_id: 'crew_1', verification_status: 'verified', background_check_status: 'clear' },
};

describe('the webhooks of the OpenAPI document', () => {
  it('describe one signed POST per event type of the catalogue', () => {
    const webhooks = openApiDocument().webhooks as Record<string, any>;
    assert.deepEqual(Object.keys(webhooks).sort(), [...EVENT_TYPES].sort());
    for (const [type, item] of Object.entries(webhooks)) {
      const headers = (required: boolean) =>
        item.post.parameters
          .filter((p: any) => p.in === 'header' && p.required === required)
          .map((p: any) => p.name)
          .sort();
      assert.deepEqual(
        headers(true),
        ['X-Service-Event-Id', 'X-Service-Event-Type', 'X-Service-Schema-Version', 'X-Service-Signature', 'X-Service-Timestamp'],
        type,
      );
      // Standard Webhooks: only for endpoints whose secret serves both schemes.
      assert.deepEqual(headers(false), ['webhook-id', 'webhook-signature', 'webhook-timestamp'], type);
    }
  });

  it('accept a well-formed delivery and refuse one that strays from the envelope', () => {
    const headers = {
      'Content-Type': 'application/json',
      'X-Service-Event-Id': 'evt_0b6f',
      'X-Service-Event-Type': 'crew.status.changed',
      'X-Service-Timestamp': '1795341600',
      'X-Service-Signature': `v1=${'ab'.repeat(32)}`,
      'X-Service-Schema-Version': '1',
    };
    checkWebhookDelivery({ headers, body: JSON.stringify(STATUS_EVENT) });
    assert.throws(
      () => checkWebhookBody('crew.status.changed', { ...STATUS_EVENT, data: { ...STATUS_EVENT.data, note: 'x' } }),
      /does not match/,
    );
    assert.throws(() => checkWebhookBody('crew.status.changed', { ...STATUS_EVENT, event_type: 'crew.profile.updated' }), /does not match/);
    assert.throws(() => checkWebhookBody('crew.compliance.changed', STATUS_EVENT), /does not match/);
    assert.throws(
      () => checkWebhookDelivery({ headers: { ...headers, 'X-Service-Signature': 'sha256=00' }, body: JSON.stringify(STATUS_EVENT) }),
      /X-Service-Signature/,
    );
  });
});
