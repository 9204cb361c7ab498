import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { validate, type Struct } from 'superstruct';
import { RequirementDefinition } from '../../src/domain/catalogue.ts';
import { passesStruct } from '../../src/domain/struct-passes.ts';
import { FixtureFile } from '../../src/services/fixtures/schema.ts';
import { catalogueDefinitions, demoSlices, jsonWithTraps, mutated, otherContainers } from '../support/json-mutations.ts';

/** What a check answers, or `throws`: superstruct cannot print a value whose toString is not a function, and throws. */
const verdict = (check: () => boolean): boolean | 'throws' => {
  try {
    return check();
  } catch {
    return 'throws';
  }
};

/**
 * The oracle is superstruct's own validate, without coercion. Where it throws (a failing value it
 * cannot print), passesStruct may throw too or answer false, never true.
 */
function decidesAsValidate<T, S>(value: unknown, struct: Struct<T, S>) {
  const expected = verdict(() => validate(value, struct)[0] === undefined);
  const actual = verdict(() => passesStruct(value, struct));
  if (expected === 'throws') assert.notEqual(actual, true);
  else assert.equal(actual, expected);
}

describe('passesStruct decides as superstruct validate does', () => {
  it('on the demo fixture file, valid and with one place changed (every entity of the change format)', () => {
    assert.equal(passesStruct(JSON.parse(readFileSync('fixtures/demo.json', 'utf8')), FixtureFile), true);
    fc.assert(
      fc.property(
        demoSlices().chain((valid) => mutated(valid, jsonWithTraps)),
        (value) => decidesAsValidate(value, FixtureFile),
      ),
      { numRuns: 800 },
    );
  });

  it('on the requirement catalogue (records, nested arrays), valid and with one place changed', () => {
    const requirements = catalogueDefinitions();
    for (const r of requirements) assert.equal(passesStruct(r, RequirementDefinition), true);
    fc.assert(
      fc.property(
        fc.constantFrom(...requirements).chain((valid) => mutated(valid, jsonWithTraps)),
        (value) => decidesAsValidate(value, RequirementDefinition),
      ),
      { numRuns: 2000 },
    );
  });

  it("on superstruct's other containers (type, tuple, union, intersection, lazy, record) and any JSON value", () => {
    const { struct, valid } = otherContainers();
    assert.equal(passesStruct(valid, struct), true);
    fc.assert(
      fc.property(fc.oneof(mutated(valid, jsonWithTraps), fc.jsonValue()), (value) => decidesAsValidate(value, struct)),
      { numRuns: 3000 },
    );
  });
});
