import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';

const T0 = '2026-11-22T10:00:00Z';

/** The world the hostile changes aim at: an employer, a vessel, a partner, a crew member and an assignment. */
const WORLD = [
  { entity: 'employer', op: 'upsert', id: 'emp_h', version: 1, data: { name: 'Hostile Shipping' } },
  {
    entity: 'vessel',
    op: 'upsert',
    id: 'ves_h',
    version: 1,
    data: {
      employer_id: 'emp_h',
      vessel_name: 'Steady',
      imo: null,
      mmsi: null,
      flag_state: 'GB',
      vessel_type: 'bulk_carrier',
      gross_tonnage: 30000,
      propulsion_kw: 9000,
    },
  },
  {
    entity: 'partner',
    op: 'upsert',
    id: 'ptn_h',
    version: 1,
    data: { name: 'Partner H', kind: 'customer', employer_id: 'emp_h', tier: 'management', rate_limit: 100 },
  },
  { entity: 'crew', op: 'upsert', id: 'crew_h', version: 1, data: { name: 'Ana Steady', bio: 'as it was' } },
  {
    entity: 'assignment',
    op: 'upsert',
    id: 'asg_h',
    version: 1,
    data: { crew_unique_id: 'crew_h', vessel_id: 'ves_h', role: 'master', position_name: 'Master', status: 'active', as_of: T0 },
  },
].map((c) => JSON.stringify(c));

const newCrew = (id: string, version: string, data = '{"name":"Never Written"}') =>
  `{"entity":"crew","op":"upsert","id":"${id}","version":${version},"data":${data}}`;

/**
 * Each hostile line, the path its issue names (a prefix of it for deep nesting), and the entity it
 * must leave as it was. Numbers are 1-based lines of the file, after the world's 5.
 */
const HOSTILE: Array<{ what: string; line: string; loc: Array<string | number> }> = [
  { what: 'NUL in a string', line: newCrew('crew_nul', '1', '{"name":"Nul\\u0000Name"}'), loc: ['data', 'name'] },
  { what: 'a lone surrogate in a string', line: newCrew('crew_sur', '1', '{"name":"Half \\ud800 a pair"}'), loc: ['data', 'name'] },
  {
    what: '1e20 for rate_limit',
    line: '{"entity":"partner","op":"patch","id":"ptn_h","version":2,"data":{"rate_limit":1e20}}',
    loc: ['data', 'rate_limit'],
  },
  {
    what: '1e20 for gross_tonnage',
    line: '{"entity":"vessel","op":"patch","id":"ves_h","version":2,"data":{"gross_tonnage":1e20}}',
    loc: ['data', 'gross_tonnage'],
  },
  {
    what: "1e20 for a CoC capacity's gt_max",
    line: `{"entity":"document","op":"upsert","id":"doc_gt","version":1,"data":{"crew_unique_id":"crew_h","type":"coc","category":"coc","title":"CoC","verification_status":"verified","classification":{"document_class":"coc","category_code":"coc","coc_capacities":[{"stcw_regulation":null,"role":"master","level":null,"gt_max":1e20,"kw_max":null,"power_unrestricted":false,"area":"unlimited","vessel_types":[]}]}}}`,
    loc: ['data', 'classification', 'coc_capacities', 0, 'gt_max'],
  },
  {
    what: '100,000-deep nesting in data',
    line: newCrew('crew_deep', '1', `{"name":"Deep","languages":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    loc: ['data', 'languages', 0, 0],
  },
  { what: 'a 2,000,000-character line', line: newCrew('crew_long', '1', `{"name":"Long","bio":"${'b'.repeat(2_000_000)}"}`), loc: [] },
  {
    what: 'a 900,000-character bio',
    line: newCrew('crew_bio', '1', `{"name":"Wordy","bio":"${'w'.repeat(900_000)}"}`),
    loc: ['data', 'bio'],
  },
  { what: '2027-02-29', line: newCrew('crew_date', '1', '{"name":"Leap","date_of_birth":"2027-02-29"}'), loc: ['data', 'date_of_birth'] },
  {
    what: 'a 5,000,000-character position_name',
    line: `{"entity":"assignment","op":"patch","id":"asg_h","version":2,"data":{"position_name":"${'p'.repeat(5_000_000)}"}}`,
    loc: [],
  },
  {
    what: 'a 201-character position_name',
    line: `{"entity":"assignment","op":"patch","id":"asg_h","version":3,"data":{"position_name":"${'p'.repeat(201)}"}}`,
    loc: ['data', 'position_name'],
  },
  {
    what: '__proto__ in data',
    line: newCrew('crew_proto', '1', '{"name":"Proto","__proto__":{"verification_status":"verified"}}'),
    loc: ['data', '__proto__'],
  },
  {
    what: '__proto__ in a patch',
    line: '{"entity":"crew","op":"patch","id":"crew_h","version":2,"data":{"address":{"__proto__":{"city":"x"}}}}',
    loc: ['data', 'address', '__proto__'],
  },
  { what: 'toString as data, for a text field', line: newCrew('crew_tostr', '1', '{"name":{"toString":1}}'), loc: ['data', 'name'] },
  {
    what: 'toString as data, under a key no record has',
    line: newCrew('crew_tostr_extra', '1', '{"name":"Extra","extra":[{"toString":false}]}'),
    loc: ['data', 'extra'],
  },
  {
    what: 'toString and valueOf as data, in a patch',
    line: '{"entity":"crew","op":"patch","id":"crew_h","version":6,"data":{"bio":{"toString":"x","valueOf":"y"}}}',
    loc: ['data', 'bio'],
  },
  { what: 'version 1.5', line: newCrew('crew_v1', '1.5'), loc: ['version'] },
  { what: 'version -1', line: newCrew('crew_v2', '-1'), loc: ['version'] },
  { what: 'version "7"', line: newCrew('crew_v3', '"7"'), loc: ['version'] },
  { what: 'version 2^60', line: newCrew('crew_v4', '1152921504606846976'), loc: ['version'] },
];

/** A good change after the hostile ones: it applies. */
const GOOD = '{"entity":"crew","op":"patch","id":"crew_h","version":5,"data":{"bio":"patched after"}}';

const startsWith = (loc: unknown[], prefix: unknown[]) => prefix.every((p, i) => loc[i] === p);

describeEachStore('svc ingest refuses hostile input, change by change, the same on both stores', ({ store, url }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ingest-bad-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('each hostile change exits 65 with its file:line and field path and writes nothing; the good change after them applies', async () => {
    const world = join(dir, 'world.ndjson');
    writeFileSync(world, `${WORLD.join('\n')}\n`);
    assert.equal((await cli(['ingest', world], { SVC_DATABASE_URL: url() }, T0)).code, 0);

    const file = join(dir, 'hostile.ndjson');
    writeFileSync(file, `${[...HOSTILE.map((h) => h.line), GOOD].join('\n')}\n`);
    const run = await cli(['ingest', file, '--json'], { SVC_DATABASE_URL: url() }, T0);
    assert.equal(run.code, 65, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.deepEqual([summary.applied, summary.rejected], [1, HOSTILE.length]);
    const wrong = HOSTILE.flatMap((h, i) => {
      const r = summary.rejections.find((x: { origin: string }) => x.origin === `${file}:${i + 1}`);
      if (!r) return [`${h.what}: no rejection with its origin ${file}:${i + 1}`];
      const locs: unknown[][] = r.issues.map((x: { loc: unknown[] }) => x.loc);
      const found =
        h.loc.length === 0
          ? r.issues.some((x: { loc: unknown[]; type: string }) => x.loc.length === 0 && x.type === 'string_too_long')
          : locs.some((loc) => startsWith(loc, h.loc));
      return [
        ...(found ? [] : [`${h.what}: no issue at ${JSON.stringify(h.loc)} (${r.reason}: ${JSON.stringify(locs)})`]),
        ...(JSON.stringify(r).length < 10_000 ? [] : [`${h.what}: the report echoes the input`]),
      ];
    });
    assert.deepEqual(wrong, []);
    const again = await cli(['ingest', file], { SVC_DATABASE_URL: url() }, T0);
    assert.equal(again.code, 65);
    const lineOf = (what: string) => `${file}:${HOSTILE.findIndex((h) => h.what === what) + 1}`;
    assert.ok(
      again.stderr.includes(
        `${lineOf('NUL in a string')}: rejected crew crew_nul: not a valid change (data.name: text must not contain NUL characters)\n`,
      ),
    );
    assert.ok(
      again.stderr.includes(
        `${lineOf('__proto__ in a patch')}: rejected crew crew_h: not a valid change (data.address.__proto__: a "__proto__" key is not allowed)\n`,
      ),
    );
    assert.ok(
      again.stderr.includes(
        `${lineOf('a 2,000,000-character line')}: rejected: line too long, not read ((change): a change is at most 1048576 bytes; this line has 2000092)\n`,
      ),
    );
    assert.equal(again.stderr.split('\n').filter((l) => l.startsWith(`${file}:`)).length, HOSTILE.length, 'one line per rejected change');

    const db = store().db;
    const crewIds = (await db.selectFrom('crew').select('crew_unique_id').orderBy('crew_unique_id').execute()).map((c) => c.crew_unique_id);
    assert.deepEqual(crewIds, ['crew_h'], 'no rejected crew member was written');
    const crew = await db.selectFrom('crew').select(['bio', 'address']).where('crew_unique_id', '=', 'crew_h').executeTakeFirstOrThrow();
    assert.deepEqual([crew.bio, crew.address], ['patched after', null]);
    const vessel = await db.selectFrom('vessels').select('gross_tonnage').where('vessel_id', '=', 'ves_h').executeTakeFirstOrThrow();
    assert.equal(Number(vessel.gross_tonnage), 30000);
    const partner = await db.selectFrom('partners').select('rate_limit').where('partner_id', '=', 'ptn_h').executeTakeFirstOrThrow();
    assert.equal(Number(partner.rate_limit), 100);
    const assignment = await db
      .selectFrom('assignments')
      .select('position_name')
      .where('assignment_id', '=', 'asg_h')
      .executeTakeFirstOrThrow();
    assert.equal(assignment.position_name, 'Master');
    const versions = await db
      .selectFrom('ingest_versions')
      .select(['entity', 'entity_id', 'version'])
      .orderBy('entity')
      .orderBy('entity_id')
      .execute();
    assert.deepEqual(
      versions.map((v) => [v.entity, v.entity_id, Number(v.version)]),
      [
        ['assignment', 'asg_h', 1],
        ['crew', 'crew_h', 5],
        ['employer', 'emp_h', 1],
        ['partner', 'ptn_h', 1],
        ['vessel', 'ves_h', 1],
      ],
    );
  });
});
