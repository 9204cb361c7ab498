import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { cli, cliChild } from '../support/cli.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { ancestry, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import { refusedUrl } from '../support/receiver.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent } from '../support/sync-world.ts';

describeEachStore('traces of a sync run and its deliveries, exported over OTLP/HTTP', ({ store, url }) => {
  const world = receiverWorld(store);
  let collector: OtlpReceiver;
  before(async () => {
    collector = await startOtlpReceiver();
  });
  after(() => collector.close());

  it('a run span holding its diff pages and each delivery attempt (partner, event type, outcome, status), the webhook request under it', async () => {
    const loaded = await cli(['--db', url(), 'fixtures', 'load', writeFixture(miniFixture())]);
    assert.equal(loaded.code, 0, loaded.stderr);
    await seedEndpoint(store().db, 'ptn_a', world.rx.url);
    const { eventId } = await seedEvent(store().db, 'ptn_a');

    const run = await cliChild(['--db', url(), 'sync'], {
      SVC_ALLOW_INSECURE_WEBHOOKS: '1',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(world.rx.received.length, 1);
    assert.equal(world.rx.received[0]!.headers.traceparent, undefined, 'no trace context is sent to a partner');

    const spans = collector.spans;
    const runSpan = spans.find((s) => s.name === 'svc.sync');
    assert.ok(runSpan, JSON.stringify(spans.map((s) => s.name)));
    assert.equal(runSpan.parentSpanId, '');
    assert.match(String(runSpan.attributes['svc.run_id']), /^run_/);
    assert.ok(run.stdout.includes(String(runSpan.attributes['svc.run_id'])), 'the run id svc sync printed');

    const pages = spans.filter((s) => s.name === 'svc.sync.diff_page');
    assert.ok(pages.length > 0, 'a span per diff page');
    for (const page of pages) assert.ok(ancestry(spans, page).includes(runSpan));

    const attempts = spans.filter((s) => s.name === 'svc.delivery.attempt');
    assert.equal(attempts.length, 1);
    const attempt = attempts[0]!;
    assert.ok(ancestry(spans, attempt).includes(runSpan), 'the attempt is part of the run');
    assert.deepEqual(
      [
        attempt.attributes['svc.partner_id'],
        attempt.attributes['svc.event_type'],
        attempt.attributes['svc.event_id'],
        attempt.attributes['svc.outcome'],
        attempt.attributes['http.response.status_code'],
      ],
      ['ptn_a', 'crew.status.changed', eventId, 'delivered', 204],
    );
    const request = spans.find((s) => s.kind === 3 && s.parentSpanId === attempt.spanId && s.attributes['http.request.method'] === 'POST');
    assert.ok(request, 'the webhook request (instrumentation-undici) is a child of its attempt');
    assert.equal(request.attributes['http.response.status_code'], 204);
    assert.ok(!JSON.stringify(spans).includes(world.rx.url), 'no webhook URL in any span');
  });

  it("a collector that refuses the spans: one line on standard error, the run's outcome unchanged", async () => {
    await seedEndpoint(store().db, 'ptn_a', world.rx.url);
    await seedEvent(store().db, 'ptn_a');
    const run = await cliChild(['--db', url(), 'sync'], {
      SVC_ALLOW_INSECURE_WEBHOOKS: '1',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${await refusedUrl()}/v1/traces`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(world.rx.received.length, 1, 'delivered as without tracing');
    assert.match(run.stderr, /svc: the last spans could not be exported/);
  });
});
