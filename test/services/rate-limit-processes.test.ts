import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pLimit from 'p-limit';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { blockSize } from '../../src/services/rate-limit.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { probe, type Probe } from '../support/probe.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { startServeChild, type ServeChild } from '../support/serve-child.ts';
import { describeEachStore } from '../support/stores.ts';

const PROCESSES = 4;
const LIMIT = 200;
/** A day: the test's calls almost always fall into one window; answers are grouped by window anyway. */
const WINDOW_SECONDS = 86_400;
const CALLS = 2 * LIMIT;
const PATHS = ['/api/v2/partners/me', '/api/v2/employers/me/vessels', '/api/v2/employers/me/crew/crew_ana/profile'];

/** One answer and the window it was counted in, told by its `RateLimit` reset (seconds to the window's end). */
interface Answer {
  probe: Probe;
  window: number;
}

function windowOf(p: Probe, receivedAt: number): number {
  const reset = /reset=(\d+)/.exec(p.headers.get('ratelimit') ?? '');
  assert.ok(reset, `a RateLimit header on every partner answer: ${p.headers.get('ratelimit')}`);
  // The server's reset is rounded up to a second and the answer travelled a moment: far less than a window.
  return Math.round((receivedAt + Number(reset[1]) * 1000) / (WINDOW_SECONDS * 1000));
}

// docs/api.md, "Rate limits": while the store answers, the processes on one store together admit
// at most the limit, and refuse at most two blocks per process early.
describeEachStore('the rate limit shared by several `svc serve` processes on one store', ({ store, url }) => {
  const servers: ServeChild[] = [];
  let key = '';

  before(async () => {
    await loadFixtures(store().db, [writeFixture(worldFixture())], () => NOW);
    key = (await issuePartnerKey(store().db, 'ptn_full', 'live', () => NOW)).key;
    const env = { SVC_RATE_LIMIT: String(LIMIT), SVC_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };
    // Four processes compiling at once start slowly on a loaded machine: a generous start limit.
    const started = await Promise.allSettled(Array.from({ length: PROCESSES }, () => startServeChild(url(), env, 60_000)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it(`${CALLS} calls of one partner spread over ${PROCESSES} processes: at most the limit admitted in a window, the rest refused with Retry-After`, async () => {
    const limit = pLimit(2 * PROCESSES);
    const answers: Answer[] = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        limit(async () => {
          const p = await probe(servers[i % PROCESSES]!.url, PATHS[i % PATHS.length]!, key);
          return { probe: p, window: windowOf(p, Date.now()) };
        }),
      ),
    );

    assert.deepEqual(
      answers.filter((a) => a.probe.status !== 200 && a.probe.status !== 429).map((a) => [a.probe.status, a.probe.json]),
      [],
    );
    for (const { probe: p } of answers) {
      assert.equal(p.headers.get('ratelimit-policy'), `${LIMIT};w=${WINDOW_SECONDS}`);
      if (p.status !== 429) continue;
      assert.equal(p.json.detail.code, 'rate_limited');
      const retryAfter = Number(p.headers.get('retry-after'));
      assert.ok(
        Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_SECONDS,
        `Retry-After: ${p.headers.get('retry-after')}`,
      );
      assert.match(p.headers.get('ratelimit')!, new RegExp(`^limit=${LIMIT}, remaining=0, reset=${retryAfter}$`));
    }

    const byWindow = new Map<number, Answer[]>();
    for (const a of answers) byWindow.set(a.window, [...(byWindow.get(a.window) ?? []), a]);
    assert.ok(byWindow.size <= 2, 'the calls took less than a window');
    const earlyBound = PROCESSES * 2 * blockSize(LIMIT);
    for (const [, group] of byWindow) {
      const admitted = group.filter((a) => a.probe.status === 200).length;
      assert.ok(admitted <= LIMIT, `${admitted} calls admitted in one window over a limit of ${LIMIT} across ${PROCESSES} processes`);
      // Tokens a process claimed and did not use are lost to the others: at most two blocks each.
      if (group.length >= LIMIT + earlyBound) {
        assert.ok(
          admitted >= LIMIT - earlyBound,
          `${admitted} of ${group.length} calls admitted, limit ${LIMIT}: refused more than ${earlyBound} early`,
        );
      }
    }
    for (const s of servers) {
      assert.ok(s.alive());
      assert.equal(s.stderr(), '');
    }
  });
});
