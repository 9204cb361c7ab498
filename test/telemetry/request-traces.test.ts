import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { findAuditEntries } from '../../src/store/repositories/audit-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { ancestry, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import { startServeChild } from '../support/serve-child.ts';
import { describeEachStore } from '../support/stores.ts';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const PROFILE = '/api/v2/employers/me/crew/crew_1/profile';
/** A trace the partner claims to be part of: svc starts its own instead. */
const PARTNERS_TRACE = '0af7651916cd43dd8448eb211c80319c';

describeEachStore(
  'traces of a partner request, exported over OTLP/HTTP, named in its log line and audit row',
  ({ store, url, dialect }) => {
    let receiver: OtlpReceiver;
    let key: string;
    before(async () => {
      const fixture = miniFixture();
      fixture.consents[0].categories.push('profile');
      await loadFixtures(store().db, [writeFixture(fixture)], () => NOW);
      key = (await issuePartnerKey(store().db, 'ptn_a', 'live', () => NOW)).key;
      receiver = await startOtlpReceiver();
    });
    after(() => receiver.close());

    it('one server span with the request id and partner id, the route template, its store queries as children; no path, key or crew id', async () => {
      const server = await startServeChild(url(), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'svc-test' });
      let requestId: string | null;
      try {
        const res = await fetch(`${server.url}${PROFILE}`, {
          headers: { authorization: `Bearer ${key}`, traceparent: `00-${PARTNERS_TRACE}-b7ad6b7169203331-01` },
        });
        assert.equal(res.status, 200, await res.text());
        requestId = res.headers.get('x-request-id');
      } finally {
        // Stopping exports what the batch still holds.
        await server.stop();
      }
      assert.equal(server.stderr(), '');
      const request = receiver.spans.find((s) => s.kind === 2 && s.attributes['svc.request_id'] === requestId);
      assert.ok(request, `a server span for ${requestId}: ${JSON.stringify(receiver.spans.map((s) => s.name))}`);
      assert.equal(request.service, 'svc-test');
      assert.equal(request.attributes['svc.partner_id'], 'ptn_a');
      assert.equal(request.attributes['http.route'], '/api/v2/employers/me/crew/:crew_unique_id/profile');
      assert.equal(request.attributes['http.status_code'] ?? request.attributes['http.response.status_code'], 200);
      assert.equal(request.parentSpanId, '', "a root span: the partner's traceparent is not followed");
      assert.notEqual(request.traceId, PARTNERS_TRACE);

      const trace = receiver.spans.filter((s) => s.traceId === request.traceId);
      const queries = trace.filter((s) => s.attributes['db.system.name'] === (dialect === 'sqlite' ? 'sqlite' : 'postgresql'));
      assert.ok(queries.length > 0, `store query spans in the request's trace: ${JSON.stringify(trace.map((s) => s.name))}`);
      for (const q of queries) assert.ok(ancestry(receiver.spans, q).includes(request), `${q.name} descends from the request span`);

      const line = server.logs.find((l) => l.msg === 'request' && l.reqId === requestId);
      assert.equal(line?.traceId, request.traceId, "the request's log line names its trace");
      const [row] = await findAuditEntries(store().db, requestId!);
      assert.equal(row?.traceId, request.traceId, "the request's audit row names its trace");
      assert.equal(server.logs.find((l) => l.msg === 'listening')?.traceId, undefined, 'a line outside any request has none');

      const exported = JSON.stringify(trace);
      assert.ok(!exported.includes('crew_1'), 'no crew id, in a path or anywhere');
      assert.ok(!exported.includes(key) && !exported.includes(key.slice(0, 12)), 'no key');
      assert.ok(!exported.includes('Ana Silva'), 'no crew data');
    });
  },
);
