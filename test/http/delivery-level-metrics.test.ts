import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createServeMetrics } from '../../src/http/metrics/registry.ts';
import { NOW, seedDeliveryHistory } from '../support/delivery-history.ts';
import { promtoolMissing, promtoolProblems, sampleValue } from '../support/exposition.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore('the delivery service level in the metrics: the last hour, every partner together', ({ store }) => {
  it(
    'percentiles, deliveries, first attempts by outcome and the oldest waiting age of a known history',
    { skip: promtoolMissing() },
    async () => {
      const db = store().db;
      await seedDeliveryHistory(db);
      const scrape = (at: string) =>
        createServeMetrics({ db, clock: () => new Date(at), auditBacklog: () => 0, auditCapacity: 100 }).scrape();
      const { body } = await scrape(NOW);
      assert.equal(promtoolProblems(body), '', "Prometheus's own parser and linter accept the exposition");
      const v = (name: string, labels?: Record<string, string>) => sampleValue(body, name, labels);
      // ptn_a's events delivered 1 to 60 minutes ago took 1 to 60 s; ptn_b's were delivered earlier.
      assert.equal(v('svc_webhook_delivered_events'), 60);
      assert.equal(v('svc_webhook_delivery_seconds', { percentile: 'p50' }), 30);
      assert.equal(v('svc_webhook_delivery_seconds', { percentile: 'p99' }), 60);
      assert.equal(v('svc_webhook_first_attempts', { outcome: 'delivered' }), 54);
      assert.equal(
        v('svc_webhook_first_attempts', { outcome: 'failed' }),
        6,
        "five of ptn_a's and ptn_b's event waiting since 30 minutes ago",
      );
      assert.equal(v('svc_outbox_oldest_pending_age_seconds'), 3 * 3600, "ptn_b's event waiting since 3 h ago");
      assert.ok(!body.includes('ptn_'), 'no series per partner');

      const later = await scrape('2026-11-22T14:00:00.000Z');
      const w = (name: string, labels?: Record<string, string>) => sampleValue(later.body, name, labels);
      assert.equal(w('svc_webhook_delivered_events'), 0, 'nothing delivered in the hour before 14:00');
      assert.equal(w('svc_webhook_delivery_seconds', { percentile: 'p99' }), 0);
      assert.equal(w('svc_webhook_first_attempts', { outcome: 'failed' }), 0);
    },
  );
});
