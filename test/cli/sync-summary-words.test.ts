import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cli } from '../support/cli.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint } from '../support/sync-world.ts';

describeEachStore('svc sync says what a run did besides creating events', ({ store, url }) => {
  const world = receiverWorld(store);
  const env = { SVC_ALLOW_INSECURE_WEBHOOKS: '1' };

  it('a first run says it recorded the baseline; --deliver-only says no diff ran', async () => {
    const loaded = await cli(['--db', url(), 'fixtures', 'load', writeFixture(miniFixture())]);
    assert.equal(loaded.code, 0, loaded.stderr);
    await seedEndpoint(store().db, 'ptn_a', world.rx.url);

    const first = await cli(['--db', url(), 'sync'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^sync run_\w+: 0 created, 0 delivered/m);
    assert.match(first.stdout, /^baseline recorded for ptn_a: its first run sends nothing/m);
    const json = JSON.parse((await cli(['--db', url(), 'sync', '--json'], env)).stdout) as { baselines: string[]; deliver_only: boolean };
    assert.deepEqual([json.baselines, json.deliver_only], [[], false], 'the second run records no baseline');

    const deliverOnly = await cli(['--db', url(), 'sync', '--deliver-only'], env);
    assert.equal(deliverOnly.code, 0, deliverOnly.stderr);
    assert.match(deliverOnly.stdout, /^sync run_\w+: deliver only, no diff, 0 delivered/m);
    assert.doesNotMatch(deliverOnly.stdout, /created|baseline/);
  });
});
