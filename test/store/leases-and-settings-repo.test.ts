import assert from 'node:assert/strict';
import { it } from 'node:test';
import { acquireLease, findLease, releaseLease, renewLease } from '../../src/store/repositories/leases-repo.ts';
import { findOrCreateSetting, findSetting } from '../../src/store/repositories/settings-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const T = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

describeEachStore('leases in the store', ({ store }) => {
  it('a free lease is taken; a held one is refused until it expires, then taken over', async () => {
    const db = store().db;
    assert.equal(await acquireLease(db, 'sync', 'run_a', T(0), T(10)), true);
    assert.deepEqual(await findLease(db, 'sync'), { name: 'sync', holder: 'run_a', expiresAt: T(10) });
    assert.equal(await acquireLease(db, 'sync', 'run_b', T(5), T(15)), false);
    assert.equal((await findLease(db, 'sync'))?.holder, 'run_a');
    assert.equal(await acquireLease(db, 'sync', 'run_b', T(10), T(20)), true, 'expired at T(10): taken over');
    assert.equal(await renewLease(db, 'sync', 'run_a', T(30)), false, 'the old holder lost it');
    assert.equal(await renewLease(db, 'sync', 'run_b', T(30)), true);
    assert.equal((await findLease(db, 'sync'))?.expiresAt, T(30));
  });

  it('only its holder releases a lease', async () => {
    const db = store().db;
    assert.equal(await acquireLease(db, 'other', 'run_c', T(0), T(10)), true);
    await releaseLease(db, 'other', 'run_d');
    assert.equal((await findLease(db, 'other'))?.holder, 'run_c');
    await releaseLease(db, 'other', 'run_c');
    assert.equal(await findLease(db, 'other'), undefined);
  });

  it('racing callers: exactly one wins', async () => {
    const db = store().db;
    const wins = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((h) => acquireLease(db, 'race', h, T(0), T(10))));
    assert.equal(wins.filter(Boolean).length, 1);
  });
});

describeEachStore('settings in the store', ({ store }) => {
  it('the first value stored wins; later candidates get it back', async () => {
    const db = store().db;
    assert.equal(await findSetting(db, 'secret_x'), undefined);
    const values = await Promise.all(['a', 'b', 'c'].map((v) => findOrCreateSetting(db, 'secret_x', v)));
    assert.equal(new Set(values).size, 1, 'every caller got the one value');
    assert.equal(await findSetting(db, 'secret_x'), values[0]);
    assert.equal(await findOrCreateSetting(db, 'secret_x', 'later'), values[0]);
  });
});
