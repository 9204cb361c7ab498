import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { syncExitCode } from '../../src/cli/sync-outcome.ts';
import { createServeMetrics } from '../../src/http/metrics/registry.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { promtool as promtoolTool, promtoolMissing } from '../support/exposition.ts';
import { refusedUrl } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent, seedPartners, T0, testClock, testDeps } from '../support/sync-world.ts';

const RULES = resolve('deploy/prometheus/svc-alerts.yml');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function promtool(args: string[]) {
  return spawnSync(promtoolTool.path(), args, { encoding: 'utf8', timeout: 120_000 });
}

describe('deploy/prometheus/: the alert rules', () => {
  it('pass promtool check rules', { skip: promtoolMissing() }, () => {
    const res = promtool(['check', 'rules', RULES]);
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /SUCCESS: 10 rules found/);
  });

  it(
    "fire on the series of each situation, and stay quiet on their near misses (promtool's unit tests)",
    { skip: promtoolMissing() },
    () => {
      const res = promtool(['test', 'rules', 'deploy/prometheus/svc-alerts.test.yml']);
      assert.equal(res.status, 0, res.stdout + res.stderr);
      assert.match(res.stdout, /SUCCESS/);
    },
  );
});

/** The firing alerts at `at` minutes, as promtool's `promql_expr_test` expects them. */
function firing(at: number, alerts: [name: string, severity: string][]) {
  return {
    expr: 'ALERTS{alertstate="firing"}',
    eval_time: `${at}m`,
    exp_samples: alerts.map(([name, severity]) => ({
      labels: `ALERTS{alertname="${name}", alertstate="firing", severity="${severity}"}`,
      value: 1,
    })),
  };
}

describeEachStore('a partner endpoint dead for six days, svc sync every 15 minutes, scraped every 5', ({ store }) => {
  it(
    'raises endpoint failing, events waiting, dead letters growing, then endpoint disabled; every sync run exits non-zero',
    { skip: promtoolMissing() },
    async () => {
      const db = store().db;
      await seedPartners(db, 'ptn_a');
      await seedEndpoint(db, 'ptn_a', await refusedUrl());
      // Ten events at once, then one every 12 hours while the endpoint is dead: 19 in all by day 5.
      for (let i = 0; i < 10; i++) await seedEvent(db, 'ptn_a', { nextAttemptAt: T0 });
      const tc = testClock();
      const start = Date.parse(T0);
      const moveTo = (ms: number) => tc.advance(Math.max(0, start + ms - tc.clock().getTime()));
      const metrics = createServeMetrics({ db, clock: tc.clock, auditBacklog: () => 0, auditCapacity: 100_000 });
      const series = new Map<string, string[]>();
      const exits = new Set<number>();
      const STEP = 5 * MINUTE;
      const steps = (6 * DAY) / STEP;
      for (let step = 0; step <= steps; step++) {
        const at = step * STEP;
        moveTo(at);
        if (at > 0 && at % (12 * 60 * MINUTE) === 0 && at <= 4.5 * DAY) await seedEvent(db, 'ptn_a', { nextAttemptAt: tc.iso() });
        if (at % (15 * MINUTE) === 0) {
          exits.add(syncExitCode(await runSync(db, testDeps(tc))));
        }
        // Prometheus scrapes on its own schedule, wherever the in-run retry waits moved the clock.
        moveTo(at);
        const { body } = await metrics.scrape();
        for (const line of body.split('\n')) {
          const m = /^(svc_(?:outbox|dead|webhook|sync|store|audit)[^ ]*) (\S+)$/.exec(line);
          if (!m) continue;
          const value = Number(m[2]);
          // promtool's clock starts at 0: timestamps count from the scenario's start, as time() does.
          const shown = m[1]!.includes('_timestamp_seconds') && value > 0 ? value - start / 1000 : value;
          const labels = m[1]!.includes('{')
            ? m[1]!.replace('}', ', instance="a:9464", job="svc"}')
            : `${m[1]}{instance="a:9464", job="svc"}`;
          if (!series.has(labels)) series.set(labels, []);
          series.get(labels)!.push(String(shown));
        }
      }
      // 79 while attempts fail and nothing dies; 76 for the runs that dead-letter (README, exit codes).
      assert.deepEqual([...exits].sort(), [76, 79], 'every run exits non-zero while the endpoint is down');

      const hours = (h: number) => h * 60;
      const test = {
        rule_files: [RULES],
        // Every 5 minutes, as often as the scrapes: 6 days of 1-minute evaluations cost promtool seconds.
        evaluation_interval: '5m',
        tests: [
          {
            interval: '5m',
            input_series: [...series].map(([name, values]) => ({ series: name, values: values.join(' ') })),
            promql_expr_test: [
              firing(30, []),
              firing(hours(2), [['SvcWebhookEndpointFailing', 'warning']]),
              firing(hours(12), [
                ['SvcWebhookEndpointFailing', 'warning'],
                ['SvcWebhookEventsWaiting', 'page'],
              ]),
              // The first ten events die after their eighth attempt, 19 hours in.
              firing(hours(19.5), [
                ['SvcDeadLettersGrowing', 'warning'],
                ['SvcWebhookEndpointFailing', 'warning'],
                ['SvcWebhookEventsWaiting', 'page'],
              ]),
              firing(hours(6 * 24), [['SvcWebhookEndpointDisabled', 'page']]),
            ],
          },
        ],
      };
      const dir = mkdtempSync(join(tmpdir(), 'svc-alerts-'));
      try {
        writeFileSync(join(dir, 'six-days.test.yml'), JSON.stringify(test));
        const res = promtool(['test', 'rules', join(dir, 'six-days.test.yml')]);
        assert.equal(res.status, 0, res.stdout + res.stderr);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const last = (name: string) => series.get(`${name}{instance="a:9464", job="svc"}`)!.at(-1);
      assert.equal(last('svc_dead_letters'), '19', 'each event died after its eighth attempt, before the endpoint was disabled');
      const dueAges = series.get('svc_outbox_oldest_due_age_seconds{instance="a:9464", job="svc"}')!.map(Number);
      assert.ok(Math.max(...dueAges) < 3600, 'the retry waits keep the oldest due age small: the rule on it alone never fires');
    },
  );
});
