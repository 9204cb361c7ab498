import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { apiDocument } from '../../src/http/routes/index.ts';

const TSC = resolve('node_modules/typescript/bin/tsc');

/** What a partner writes against the generated types: reads, the events feed and a webhook handler. */
const USAGE = `
import type { components, paths, webhooks } from './api.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type FleetPage = Json<paths['/api/v2/employers/me/fleet']['get']['responses'][200]>;
type Status = components['schemas']['CrewStatusChangedEvent'];
type Delivery = NonNullable<webhooks['crew.document.processed']['post']['requestBody']>['content']['application/json'];

export const page: FleetPage = {
  items: [{ crew_unique_id: 'crew_1', vessel_id: 'ves_1', as_of: '2026-11-01T00:00:00Z', name: 'A', vessel_name: 'V', vessel_imo: null, role: 'master', documents_expiring: 0 }],
  expiring_within_days: 30,
};
export const cursor: string | undefined = page.next_cursor;

export const status: Status = {
  schema_version: 1, event_id: 'evt_1', event_type: 'crew.status.changed', occurred_at: '2026-11-01T00:00:00Z', partner_id: 'ptn_a',
  data: { crew_unique_id: 'crew_1', verification_status: 'verified', background_check_status: 'clear' },
};

export function documentIdOf(d: Delivery): string {
  return d.data.document_id;
}

// The types are strict enough to catch a partner's mistakes:
// @ts-expect-error unknown background-check status
export const wrongStatus: Status['data'] = { crew_unique_id: 'c', verification_status: 'verified', background_check_status: 'green' };
// @ts-expect-error items is an array
export const wrongPage: FleetPage = { items: 'none', expiring_within_days: 30 };
`;

function tsc(dir: string) {
  return spawnSync(
    process.execPath,
    [
      TSC,
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--skipLibCheck',
      join(dir, 'usage.ts'),
    ],
    { encoding: 'utf8' },
  );
}

describe('a typed client generated from the OpenAPI document (openapi-typescript)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-typed-client-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('generates types for every path and webhook, and a usage of them typechecks', async () => {
    const ast = await openapiTS(structuredClone(apiDocument()) as never);
    const source = astToString(ast);
    for (const name of ['/api/v2/employers/me/fleet', 'crew.compliance.changed', 'CrewProfileUpdatedEvent'])
      assert.ok(source.includes(name), name);
    writeFileSync(join(dir, 'api.d.ts'), source);
    writeFileSync(join(dir, 'usage.ts'), USAGE);
    const ok = tsc(dir);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    // The check can fail: a field the schema does not have is a type error.
    writeFileSync(
      join(dir, 'usage.ts'),
      `${USAGE}\nexport const extra: Status['data'] = { crew_unique_id: 'c', verification_status: 'verified', background_check_status: 'clear', colour: 'red' };\n`,
    );
    const bad = tsc(dir);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stdout, /colour/);
  });
});
