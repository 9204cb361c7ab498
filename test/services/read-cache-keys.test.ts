import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { EvaluationInput } from '../../src/services/compliance/check-compliance.ts';
import type { MatrixInput } from '../../src/services/read-api/compliance-matrix.ts';
import { answerKey, crewAccessKey, evaluationKey, keyOf, matrixKey, type AnswerRequest } from '../../src/services/read-cache/keys.ts';
import type { CrewAccessQuery } from '../../src/services/visibility/access.ts';

const catalogue = { version: 3, definitions: [] };

const assignment: EvaluationInput['assignment'] = {
  assignment: {
    assignmentId: 'asg_1',
    crewUniqueId: 'crew_1',
    vesselId: 'ves_a',
    role: 'master',
    positionName: 'Master',
    status: 'active',
    asOf: '2026-10-01T00:00:00Z',
  },
  vessel: {
    vesselId: 'ves_a',
    vesselType: 'bulk_carrier',
    grossTonnage: 4000,
    propulsionKw: 3000,
    flagState: 'PT',
    tradingArea: 'unlimited',
    employerId: 'emp_1',
    vesselName: 'Alpha Star',
    imo: '9000001',
    mmsi: null,
    isTest: false,
  },
};

/** An input of each read, every field given (the compiler insists on new ones), and its key function. */
const READS: { name: string; input: object; key: (input: any) => string }[] = [
  {
    name: 'live evaluation',
    input: {
      crewUniqueId: 'crew_1',
      assignment,
      on: '2026-11-22',
      medicalOn: '2026-11-20',
      windowDays: 90,
      catalogue,
    } satisfies Required<EvaluationInput>,
    key: evaluationKey,
  },
  {
    name: 'fleet-and-consent answer',
    input: {
      fleet: { kind: 'employer', employerId: 'emp_1', isTest: false },
      crewUniqueId: 'crew_1',
      partnerId: 'ptn_a',
    } satisfies CrewAccessQuery,
    key: crewAccessKey,
  },
  {
    name: 'vessel matrix',
    input: {
      fleet: { kind: 'contract', partnerId: 'ptn_x', isTest: true },
      partnerId: 'ptn_x',
      vesselId: 'ves_a',
      on: '2026-11-22',
      medicalOn: '2026-11-20',
      medicalVisible: false,
      windowDays: 90,
      catalogue,
    } satisfies Required<MatrixInput>,
    key: matrixKey,
  },
  {
    name: 'data-versioned GET',
    input: {
      route: '/api/v2/employers/me/fleet',
      url: '/api/v2/employers/me/fleet?limit=2',
      partnerId: 'ptn_a',
      mode: 'live',
      scopes: ['crew:status:read', 'vessels:fleet:read'],
      today: '2026-11-22',
      baseUrl: 'https://svc.example.com',
    } satisfies Required<AnswerRequest>,
    key: answerKey,
  },
];

/** Every path to a leaf of `value` (a catalogue counts as a leaf: its version names it). */
function leaves(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || path.at(-1) === 'catalogue') return [path];
  return Object.entries(value).flatMap(([name, inner]) => leaves(inner, [...path, name]));
}

function withLeaf(value: unknown, path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]!] = withLeaf(copy[path[0]!], path.slice(1), leaf);
  return copy;
}

function leafAt(value: unknown, path: string[]): unknown {
  return path.reduce((v: any, name) => v[name], value);
}

/** Another value for a leaf: a catalogue of any version, or anything else (a field may also turn absent, as an optional one does). */
const anotherLeaf = (path: string[]) =>
  path.at(-1) === 'catalogue'
    ? fc.record({ version: fc.integer(), definitions: fc.constant([]) })
    : fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));

/** The same object with its properties, at every depth, in another order. */
function reordered(value: unknown, seed: number): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([k, v], i) => [k, reordered(v, seed + i)] as const);
  const turn = seed % Math.max(entries.length, 1);
  return Object.fromEntries([...entries.slice(turn), ...entries.slice(0, turn)].reverse());
}

describe('read cache keys are the whole typed input of their read', () => {
  for (const read of READS) {
    it(`${read.name}: changing any field, at any depth, changes the key`, () => {
      const paths = leaves(read.input);
      fc.assert(
        fc.property(
          fc.constantFrom(...paths).chain((path) => fc.tuple(fc.constant(path), anotherLeaf(path))),
          ([path, leaf]) => {
            const before = leafAt(read.input, path);
            fc.pre(JSON.stringify(keyOf({ v: before })) !== JSON.stringify(keyOf({ v: leaf })));
            assert.notEqual(read.key(withLeaf(read.input, path, leaf)), read.key(read.input), path.join('.'));
          },
        ),
        { numRuns: 200 },
      );
    });

    it(`${read.name}: the order fields were written in does not change the key`, () => {
      fc.assert(fc.property(fc.nat(20), (seed) => assert.equal(read.key(reordered(read.input, seed)), read.key(read.input))));
    });
  }

  it('refuses a Set or a Map, which JSON would write as nothing', () => {
    assert.throws(() => keyOf({ scopes: new Set(['a']) }), TypeError);
    assert.throws(() => keyOf({ byId: new Map([['a', 1]]) }), TypeError);
  });
});
