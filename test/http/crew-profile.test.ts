import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { expectError } from '../support/expect.ts';
import { PNG_1x1 } from '../support/mini-fixture.ts';
import { startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const profile = (id: string) => `/api/v2/employers/me/crew/${id}/profile`;
const photo = (id: string) => `/api/v2/employers/me/crew/${id}/photo`;

const NAME = { name: 'Ana Silva', rank: 'Master' };
const CONTACT = { email: 'Ana.Silva@Example.com', phone: '+351912345678', country_code: 'PT' };
const professional = (url: string) => ({
  nationality: 'PT',
  languages: ['pt', 'en'],
  skills: ['ecdis'],
  years_experience: 12,
  bio: 'Master mariner',
  profile_photo_url: url,
});
const EXPERIENCE = {
  employment_history: [
    {
      employer_name: 'Alpha',
      vessel_name: 'MV ves_a1',
      role: 'master',
      start_date: '2020-01-01',
      end_date: null,
      source: 'employer_verified',
    },
  ],
};
const PERSONAL = {
  date_of_birth: '1980-02-03',
  address: {
    line1: null,
    line2: null,
    city: 'Lisbon',
    region: 'Lisboa',
    postal_code: '1100-001',
    country_code: 'PT',
    full_address: 'Lisbon, Lisboa 1100-001, PT',
  },
  passport: { number: 'P123', issuing_country: 'PT', expiry_date: '2030-01-01' },
  visas: [{ type: 'C1/D', country_code: 'US', number: 'V1', expiry_date: '2028-01-01' }],
};

describeEachStore('crew profile and photo', ({ store }) => {
  let w: World;
  let photoUrl: string;
  before(async () => {
    w = await startWorld(store().db);
    photoUrl = `${w.api.url}${photo('crew_ana')}`;
  });
  after(() => w.close());

  it('every block with every scope', async () => {
    const res = await w.api.get(profile('crew_ana'), { key: w.keys.full });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { crew_unique_id: 'crew_ana', ...NAME, ...CONTACT, ...professional(photoUrl), ...EXPERIENCE, ...PERSONAL });
  });

  it('each block only with its own scope; the others are absent, not null', async () => {
    const cases: [string[], Record<string, unknown>][] = [
      [['crew:profile:read'], NAME],
      [['crew:contact:read'], CONTACT],
      [['crew:professional:read'], professional(photoUrl)],
      [['crew:experience:read'], EXPERIENCE],
      [['crew:personal:read'], PERSONAL],
      [['crew:profile:full:read'], { ...EXPERIENCE, ...PERSONAL }],
    ];
    for (const [scopes, expected] of cases) {
      const res = await w.api.get(profile('crew_ana'), { key: await w.partnerWith(scopes) });
      assert.deepEqual(res.json, { crew_unique_id: 'crew_ana', ...expected }, scopes.join());
    }
    assert.deepEqual((await w.api.get(profile('crew_ana'), { key: w.keys.basic })).json, { crew_unique_id: 'crew_ana', ...NAME });
  });

  it('no profile scope at all: 403 naming crew:profile:read', async () => {
    const res = await w.api.get(profile('crew_ana'), { key: await w.partnerWith(['vessels:fleet:read', 'crew:documents:read']) });
    expectError(res, 403, 'insufficient_scope', { required_scope: 'crew:profile:read' });
  });

  it('without profile consent: 403 consent_required naming the category', async () => {
    const key = await w.partnerWith(['crew:profile:read', 'crew:professional:read'], ['status', 'documents', 'compliance']);
    expectError(await w.api.get(profile('crew_ana'), { key }), 403, 'consent_required', { consent: 'profile' });
    expectError(await w.api.get(photo('crew_ana'), { key }), 403, 'consent_required', { consent: 'profile' });
    expectError(await w.api.get(profile('crew_cho'), { key: w.keys.full }), 403, 'consent_required', { consent: 'profile' });
  });

  it("crew not on the fleet (signed off, another partner's, other mode, unknown) are 404 crew_not_found", async () => {
    for (const id of ['crew_dan', 'crew_fay', 'crew_eve', 'nobody']) {
      expectError(await w.api.get(profile(id), { key: w.keys.full }), 404, 'crew_not_found');
      expectError(await w.api.get(photo(id), { key: w.keys.full }), 404, 'crew_not_found');
    }
    assert.equal((await w.api.get(profile('crew_eve'), { key: w.keys.fullTest })).status, 200);
  });

  it('profile_photo_url is null when no photo is held', async () => {
    const res = await w.api.get(profile('crew_fay'), { key: w.keys.b });
    assert.equal(res.json.profile_photo_url, null);
  });

  it('the photo: its bytes and type, never cached', async () => {
    const res = await w.api.get(photo('crew_ana'), { key: w.keys.full });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.deepEqual(res.bytes, PNG_1x1);
  });

  it('the photo needs crew:profile:read and crew:professional:read', async () => {
    expectError(await w.api.get(photo('crew_ana'), { key: await w.partnerWith(['crew:profile:read']) }), 403, 'insufficient_scope', {
      required_scope: 'crew:professional:read',
    });
    expectError(await w.api.get(photo('crew_ana'), { key: await w.partnerWith(['crew:professional:read']) }), 403, 'insufficient_scope', {
      required_scope: 'crew:profile:read',
    });
  });

  it('no photo held: 404 photo_not_found', async () => {
    expectError(await w.api.get(photo('crew_fay'), { key: w.keys.b }), 404, 'photo_not_found');
  });
});
