import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { cli } from '../support/cli.ts';
import { NO_FIGURES, NOW, seedDeliveryHistory } from '../support/delivery-history.ts';
import { describeEachStore } from '../support/stores.ts';

/** A table's rows as objects of strings, by the header row's names. */
function table(stdout: string): Record<string, string>[] {
  const [head, ...lines] = stdout.trimEnd().split('\n');
  const header = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((c, i) => [header[i]!, c])));
}

describeEachStore('svc admin delivery-report: the service level per partner over a window', ({ store, url }) => {
  before(() => seedDeliveryHistory(store().db));
  const svc = (...argv: string[]) => cli(['--db', url(), 'admin', 'delivery-report', ...argv], {}, NOW);

  it('over the last 24 h by default: percentiles, first-attempt rate and oldest waiting per partner and for all', async () => {
    const res = await svc('--json');
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    assert.deepEqual(report.window, { since: '2026-11-21T12:00:00Z', until: '2026-11-22T12:00:00Z' });
    assert.equal(report.p99_target_seconds, 1200);
    const [a, b, c] = report.partners;
    assert.deepEqual(a, {
      partner_id: 'ptn_a',
      delivered: 100,
      p50_seconds: 50,
      p99_seconds: 99,
      first_attempts: 100,
      first_attempts_delivered: 90,
      first_attempt_success_rate: 0.9,
      waiting: 0,
      oldest_waiting_since: null,
      oldest_waiting_age_seconds: null,
    });
    assert.deepEqual(
      b,
      {
        partner_id: 'ptn_b',
        delivered: 5,
        p50_seconds: 1800,
        p99_seconds: 12_600,
        first_attempts: 7,
        first_attempts_delivered: 0,
        first_attempt_success_rate: 0,
        waiting: 2,
        oldest_waiting_since: '2026-11-22T09:00:00Z',
        oldest_waiting_age_seconds: 10_800,
      },
      'the replayed dead letter counts once among first attempts, and its delivery after 3.5 h among the rest',
    );
    assert.deepEqual(c, { partner_id: 'ptn_c', ...NO_FIGURES }, 'a partner with an endpoint and nothing sent still has its row');
    assert.deepEqual(
      report.all,
      {
        delivered: 105,
        p50_seconds: 53,
        p99_seconds: 3600,
        first_attempts: 107,
        first_attempts_delivered: 90,
        first_attempt_success_rate: 0.8411,
        waiting: 2,
        oldest_waiting_since: '2026-11-22T09:00:00Z',
        oldest_waiting_age_seconds: 10_800,
      },
      "percentiles of every delivery together, not of the partners' percentiles; the test event is no part of it",
    );
  });

  it('--since takes a length or an instant; the table has the same columns and an (all) row', async () => {
    const days = JSON.parse((await svc('--since', '3d', '--json')).stdout);
    assert.deepEqual(
      [days.partners[0].delivered, days.partners[0].p50_seconds, days.partners[0].p99_seconds, days.partners[0].first_attempts],
      [101, 51, 100, 101],
      'the delivery two days ago, after 9,999 s, is in a 3-day window',
    );
    const hour = JSON.parse((await svc('--since', '2026-11-22T11:00:00Z', '--json')).stdout);
    assert.deepEqual(
      [hour.all.delivered, hour.all.p50_seconds, hour.all.p99_seconds, hour.all.first_attempts, hour.all.first_attempts_delivered],
      [60, 30, 60, 60, 54],
    );
    const plain = await svc();
    assert.equal(plain.code, 0, plain.stderr);
    const rows = table(plain.stdout);
    assert.deepEqual(
      rows.map((r) => r.partner_id),
      ['ptn_a', 'ptn_b', 'ptn_c', '(all)'],
    );
    assert.deepEqual(Object.keys(rows[0]!), ['partner_id', ...Object.keys(JSON.parse((await svc('--json')).stdout).all)]);
    assert.equal(rows[1]!.p99_seconds, '12600');
    assert.equal(rows[2]!.p50_seconds, '-');
    assert.match(plain.stderr, /^delivery from 2026-11-21T12:00:00Z to 2026-11-22T12:00:00Z; target: p99 within 1200 s$/m);
  });

  it('a --since that is neither a length nor an instant is bad usage (exit 64)', async () => {
    for (const since of ['24', '0h', 'yesterday', '2026-02-30']) {
      const res = await svc('--since', since);
      assert.equal(res.code, 64, since);
      assert.match(res.stderr, /--since.*expected a length back from now such as 24h/);
    }
  });
});
