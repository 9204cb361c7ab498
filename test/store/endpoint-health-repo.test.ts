import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { disableIfFailingSince, noteEndpointAttempts } from '../../src/store/repositories/endpoint-health-repo.ts';
import { findEndpointByPartner, insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedPartners, T0 } from '../support/sync-world.ts';

const at = (minute: number) => new Date(Date.parse(T0) + minute * 60_000).toISOString();

/** The rule, one attempt at a time: a delivered attempt resets the failures, a failed one counts from the first. */
function model(attempts: readonly { at: string; delivered: boolean }[]) {
  let h = { consecutiveFailures: 0, failingSince: null as string | null, lastSuccessAt: null as string | null };
  for (const a of attempts) {
    h = a.delivered
      ? { consecutiveFailures: 0, failingSince: null, lastSuccessAt: a.at }
      : { ...h, consecutiveFailures: h.consecutiveFailures + 1, failingSince: h.failingSince ?? a.at };
  }
  return h;
}

describeEachStore('endpoint health in the store', ({ store }) => {
  let n = 0;
  async function freshEndpoint(): Promise<string> {
    const partnerId = `ptn_h${++n}`;
    await seedPartners(store().db, partnerId);
    await insertEndpoint(store().db, {
      endpointId: `whe_${partnerId}`,
      partnerId,
      url: 'https://h.example/x',
      subscribedEvents: ['crew.status.changed'],
      secret: 'whsec_x',
      status: 'active',
      createdAt: T0,
      updatedAt: T0,
    });
    return partnerId;
  }

  it('attempts stored in batches of any size give the health of noting them one by one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 30, maxLength: 30 }),
        async (outcomes, cuts) => {
          const partnerId = await freshEndpoint();
          const attempts = outcomes.map((delivered, i) => ({ at: at(i), delivered }));
          for (let i = 0, c = 0; i < attempts.length; c++) {
            const size = cuts[c]!;
            await noteEndpointAttempts(store().db, { partnerId, attempts: attempts.slice(i, i + size) });
            i += size;
          }
          const { disabledReason, disabledAt, ...health } = (await findEndpointByPartner(store().db, partnerId))!.health!;
          assert.deepEqual(health, model(attempts));
          assert.deepEqual([disabledReason, disabledAt], [null, null]);
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 15) },
    );
  });

  it('disables only an active endpoint failing since the cut-off or earlier, once, with the reason and time', async () => {
    const db = store().db;
    const partnerId = await freshEndpoint();
    assert.equal(await disableIfFailingSince(db, partnerId, at(100), at(200), 5), false, 'not failing');
    await noteEndpointAttempts(db, {
      partnerId,
      attempts: [
        { at: at(10), delivered: false },
        { at: at(20), delivered: false },
      ],
    });
    assert.equal(await disableIfFailingSince(db, partnerId, at(9), at(200), 5), false, 'failing since after the cut-off');
    assert.equal((await findEndpointByPartner(db, partnerId))?.status, 'active');
    assert.equal(await disableIfFailingSince(db, partnerId, at(10), at(200), 5), true);
    const e = (await findEndpointByPartner(db, partnerId))!;
    assert.deepEqual([e.status, e.updatedAt, e.health?.disabledAt], ['disabled', at(200), at(200)]);
    assert.equal(e.health?.disabledReason, `every delivery attempt failed for 5 days (2 in a row since ${at(10)})`);
    assert.equal(await disableIfFailingSince(db, partnerId, at(300), at(400), 5), false, 'already disabled');
    assert.equal((await findEndpointByPartner(db, partnerId))?.health?.disabledAt, at(200));
  });
});
