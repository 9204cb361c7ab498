import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EVENT_ACCESS } from '../../src/domain/event-access.ts';
import { EVENT_CATALOGUE, SNAPSHOT_SUBJECT_NAMES, subjectAccess, type CrewSnapshot } from '../../src/domain/event-catalogue.ts';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { diffCrew, type CrewView, type Digested } from '../../src/sync/diff/crew-diff.ts';
import { openApiDocument } from '../support/openapi-check.ts';

const payload = (digest: string): Digested => ({ data: { digest }, digest });
const digest = fc.constantFrom('d1', 'd2', 'd3');
const keyed = fc.dictionary(fc.constantFrom('k1', 'k2', 'k3'), digest).map((digests) => ({ ...digests }));
const snapshot = fc
  .record({ status: digest, profile: digest, compliance: keyed, docs: keyed }, { requiredKeys: [] })
  .map((parts): CrewSnapshot => ({ ...parts }));

function viewOf(crewUniqueId: string, seen: CrewSnapshot, replaced?: Record<string, string>): CrewView {
  const map = (digests?: Record<string, string>) =>
    digests && new Map(Object.entries(digests).map(([key, value]) => [key, payload(value)]));
  return {
    crewUniqueId,
    ...(replaced && { replaced: { docs: map(replaced) } }),
    ...(seen.status && { status: payload(seen.status) }),
    ...(seen.profile && { profile: payload(seen.profile) }),
    ...(seen.compliance && { compliance: map(seen.compliance) }),
    ...(seen.notices && { notices: map(seen.notices) }),
    ...(seen.docs && { docs: map(seen.docs) }),
  };
}

/**
 * The events docs/webhooks.md promises for what a partner sees now against what it was sent,
 * written out by hand. `replaced`: documents that left the list because a newer edition replaced them.
 */
function expectedEvents(now: CrewSnapshot, before: CrewSnapshot | undefined, replaced: Record<string, string> = {}): string[] {
  const out: string[] = [];
  if (now.status !== undefined && now.status !== before?.status) out.push('crew.status.changed');
  if (now.profile !== undefined && now.profile !== before?.profile) out.push('crew.profile.updated');
  for (const [vessel, value] of Object.entries(now.compliance ?? {}))
    if (before?.compliance?.[vessel] !== value) out.push('crew.compliance.changed');
  // A notice is sent once, when its key is new; its payload never changes what was announced.
  for (const notice of Object.keys(now.notices ?? {})) if (before?.notices?.[notice] === undefined) out.push('crew.compliance.upcoming');
  for (const [doc, value] of Object.entries(now.docs ?? {})) {
    const sent = before?.docs?.[doc];
    if (sent === undefined) out.push('crew.document.processed');
    else if (sent !== value) out.push('crew.document.updated');
  }
  // A replaced document the partner was sent gets its final state; one withdrawn (not replaced) leaves silently.
  for (const doc of Object.keys(replaced))
    if (now.docs && !(doc in now.docs) && before?.docs?.[doc] !== undefined) out.push('crew.document.updated');
  return out;
}

describe('the event catalogue', () => {
  it('gives every event type the scope and consent of the contract, the same the access check applies', () => {
    assert.deepEqual(Object.keys(EVENT_CATALOGUE).sort(), [...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) assert.deepEqual(EVENT_CATALOGUE[type].access, EVENT_ACCESS[type], type);
    assert.deepEqual(EVENT_CATALOGUE['crew.status.changed'].access, { scope: 'crew:status:subscribe', consent: 'status' });
    assert.deepEqual(EVENT_CATALOGUE['crew.document.updated'].access, { scope: 'crew:documents:read', consent: 'documents' });
  });

  it('lets the event types of one snapshot subject share one access rule (the diff decides what a partner sees per subject)', () => {
    for (const type of EVENT_TYPES) assert.deepEqual(EVENT_CATALOGUE[type].access, subjectAccess(EVENT_CATALOGUE[type].subject), type);
  });

  it('drives the diff: each subject a partner sees fires its events on a new or changed digest, nothing on an equal one, and an update for a replaced document', () => {
    fc.assert(
      fc.property(snapshot, fc.option(snapshot, { nil: undefined }), fc.option(keyed, { nil: undefined }), (now, before, replaced) => {
        const { next, events } = diffCrew(viewOf('crew_1', now, replaced), before);
        assert.deepEqual(
          events.map((event) => event.type),
          expectedEvents(now, before, replaced),
        );
        assert.ok(events.every((event) => event.crewUniqueId === 'crew_1'));
        assert.deepEqual(next, now);
        const replacements = events.slice(expectedEvents(now, before).length);
        assert.deepEqual(
          replacements.map((event) => event.data),
          Object.entries(replaced ?? {})
            .filter(([doc]) => now.docs && !(doc in now.docs) && before?.docs?.[doc] !== undefined)
            .map(([, digest]) => ({ digest })),
          'the final state of each',
        );
      }),
    );
  });

  it("describes each webhook of the OpenAPI document with its access rule and its subject's payload", () => {
    const document = openApiDocument();
    const webhooks = document.webhooks as Record<string, any>;
    const schemas = document.components.schemas as Record<string, any>;
    for (const type of EVENT_TYPES) {
      const { access } = EVENT_CATALOGUE[type];
      assert.match(webhooks[type].post.description, new RegExp(`^Scope \`${access.scope}\` and ${access.consent} consent`), type);
      const envelope = webhooks[type].post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      assert.ok(schemas[schemas[envelope].properties.data.$ref.split('/').pop()], type);
    }
    assert.deepEqual(SNAPSHOT_SUBJECT_NAMES, ['status', 'profile', 'compliance', 'notices', 'docs']);
  });
});
