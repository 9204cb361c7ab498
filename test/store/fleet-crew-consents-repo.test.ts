import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { fleetOf } from '../../src/domain/partner.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { consentsFor, consentsForPartners, hasConsent } from '../../src/store/repositories/consents-repo.ts';
import { findCrewProfile } from '../../src/store/repositories/crew-repo.ts';
import { assignmentsOnVessels, crewPageOnVessels, listFleetVessels } from '../../src/store/repositories/fleet-repo.ts';
import { crewAssignmentsOnFleet, findFleetCrewByEmail } from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore('fleet, crew and consents in the store', ({ store }) => {
  before(async () => loadFixtures(store().db, [writeFixture(worldFixture())], () => NOW));

  it("a partner's fleet is its employer's vessels of the key's mode, as domain vessels", async () => {
    const db = store().db;
    const partner = (await findPartner(db, 'ptn_full'))!;
    const live = await listFleetVessels(db, fleetOf(partner, 'live'));
    assert.deepEqual(
      live.map((v) => [v.vesselId, v.employerId, v.isTest]),
      [
        ['ves_a1', 'emp_a', false],
        ['ves_a2', 'emp_a', false],
      ],
    );
    assert.deepEqual(
      (await listFleetVessels(db, fleetOf(partner, 'test'))).map((v) => v.vesselId),
      ['ves_at'],
    );
    assert.deepEqual(await listFleetVessels(db, { kind: 'none' }), []);
  });

  it('on-fleet assignments: signed_off and other fleets are not on it; e-mail lookup is within the fleet', async () => {
    const db = store().db;
    const fleet = fleetOf((await findPartner(db, 'ptn_full'))!, 'live');
    const [ana] = await crewAssignmentsOnFleet(db, fleet, 'crew_ana');
    assert.deepEqual([ana?.assignment.vesselId, ana?.assignment.status, ana?.vessel.vesselId], ['ves_a1', 'active', 'ves_a1']);
    assert.deepEqual(await crewAssignmentsOnFleet(db, fleet, 'crew_dan'), [], 'signed off');
    assert.deepEqual(await crewAssignmentsOnFleet(db, fleet, 'crew_fay'), [], "another partner's crew");
    assert.equal(await findFleetCrewByEmail(db, fleet, 'ana.silva@example.com'), 'crew_ana');
    assert.equal(await findFleetCrewByEmail(db, { kind: 'none' }, 'ana.silva@example.com'), undefined);
    assert.deepEqual(await crewPageOnVessels(db, ['ves_a1', 'ves_a2'], null, 10), ['crew_ana', 'crew_ben', 'crew_cho']);
    assert.deepEqual(await crewPageOnVessels(db, ['ves_a1', 'ves_a2'], 'crew_ana', 1), ['crew_ben']);
    assert.deepEqual(
      (await assignmentsOnVessels(db, ['ves_a1'], ['crew_ana', 'crew_dan'])).map((a) => a.crewUniqueId),
      ['crew_ana'],
    );
  });

  it('a crew profile with its parsed JSON parts; none for an unknown id', async () => {
    const db = store().db;
    const ana = await findCrewProfile(db, 'crew_ana');
    assert.equal(ana?.name, 'Ana Silva');
    assert.deepEqual(
      ana?.employmentHistory.map((e) => e.source),
      ['employer_verified'],
    );
    assert.ok(Array.isArray(ana?.languages) && Array.isArray(ana.visas));
    assert.equal(await findCrewProfile(db, 'crew_nobody'), undefined);
  });

  it('a stored address reads with every part, missing ones null; absent JSON parts read as empty lists or null', async () => {
    const db = store().db;
    assert.deepEqual((await findCrewProfile(db, 'crew_ana'))?.address, {
      line1: null,
      line2: null,
      city: 'Lisbon',
      region: 'Lisboa',
      postal_code: '1100-001',
      country_code: 'PT',
    });
    const ben = (await findCrewProfile(db, 'crew_ben'))!;
    assert.deepEqual(
      [ben.address, ben.passport, ben.languages, ben.skills, ben.visas, ben.employmentHistory],
      [null, null, [], [], [], []],
    );
  });

  it('consents by partner and crew member, one category at a time', async () => {
    const db = store().db;
    assert.equal(await hasConsent(db, 'ptn_full', 'crew_cho', 'status'), true);
    assert.equal(await hasConsent(db, 'ptn_full', 'crew_cho', 'profile'), false);
    assert.equal(await hasConsent(db, 'ptn_b', 'crew_ana', 'status'), false);
    const of = await consentsFor(db, 'ptn_full', ['crew_ana', 'crew_ben', 'crew_cho']);
    assert.deepEqual([...of.keys()].sort(), ['crew_ana', 'crew_cho'], 'crew with no consent are absent');
    assert.deepEqual([...of.get('crew_cho')!], ['status']);
    const both = await consentsForPartners(db, ['ptn_full', 'ptn_basic'], ['crew_ana']);
    assert.equal(both.get('ptn_basic')?.get('crew_ana')?.size, 4);
    assert.deepEqual([...both.keys()], ['ptn_full', 'ptn_basic'], 'every partner asked for has an entry');
    assert.equal((await consentsForPartners(db, [], ['crew_ana'])).size, 0);
    assert.equal((await consentsFor(db, 'ptn_nobody', ['crew_ana'])).size, 0);
  });
});
