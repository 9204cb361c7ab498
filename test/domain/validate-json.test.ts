import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { validate, type Struct } from 'superstruct';
import { RequirementDefinition } from '../../src/domain/catalogue.ts';
import { validateJson } from '../../src/domain/validate-json.ts';
import { EmployerFixture, FixtureFile, FixtureOutline } from '../../src/services/fixtures/schema.ts';
import { catalogueDefinitions, demoSlices, jsonWithTraps, mutated, otherContainers } from '../support/json-mutations.ts';

const failuresOf = (error: { failures(): Array<{ path: unknown[]; type: string; message: string }> }) =>
  error.failures().map((f) => ({ path: f.path, type: f.type, message: f.message }));

/** superstruct's validate without coercion, its failures made, or `throws`. */
function superstructSays<T, S>(value: unknown, struct: Struct<T, S>) {
  try {
    const [error] = validate(value, struct);
    return error ? failuresOf(error) : 'passes';
  } catch {
    return 'throws';
  }
}

/** validateJson answers (it must not throw) as superstruct does wherever superstruct answers, and fails wherever it throws. */
function answersAsSuperstruct<T, S>(value: unknown, struct: Struct<T, S>) {
  const [error, passed] = validateJson(value, struct);
  const expected = superstructSays(value, struct);
  if (expected === 'passes') assert.equal(passed, value, 'a value that passes is returned as it is');
  else if (expected === 'throws') assert.ok(error && error.failures().length > 0, 'a value superstruct cannot print fails');
  else assert.deepEqual(error && failuresOf(error), expected);
}

describe('validateJson: superstruct validate for any JSON value, an object holding toString as data included', () => {
  it('an object whose own toString is not a function fails at its path, printed as any object is', () => {
    const [bad] = validateJson({ employer_id: 'emp_a', name: { toString: 1 } }, EmployerFixture);
    assert.deepEqual(bad && failuresOf(bad), [{ path: ['name'], type: 'text', message: 'Input should be a valid string' }]);
    const [extra] = validateJson({ employer_id: 'emp_a', name: 'Baltic', extra: { toString: false } }, EmployerFixture);
    assert.deepEqual(extra && failuresOf(extra), [
      { path: ['extra'], type: 'never', message: 'Expected a value of type `never`, but received: `[object Object]`' },
    ]);
    // A failure reported before the one superstruct cannot print: all of them are made, none throws later.
    const [outline] = validateJson({ $comment: [{ toString: 2 }], x: [{ valueOf: 1, toString: 3 }] }, FixtureOutline);
    assert.deepEqual(
      outline?.failures().map((f) => f.path),
      [['$comment'], ['x']],
    );
    assert.deepEqual(outline?.failures()[1]?.value, [{ valueOf: 1, toString: 3 }], 'the failing value has its own keys and values');
  });

  it('a value that passes is returned as it is, toString as data included', () => {
    const value = { employers: [{ toString: 1, employer_id: 'emp_a' }] };
    assert.deepEqual(validateJson(value, FixtureOutline), [undefined, value]);
    assert.equal(validateJson(value, FixtureOutline)[1], value);
  });

  it('on the requirement catalogue, valid and with one place changed (toString and valueOf as data often)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalogueDefinitions()).chain((valid) => mutated(valid, jsonWithTraps)),
        (value) => answersAsSuperstruct(value, RequirementDefinition),
      ),
      { numRuns: 1000 },
    );
  });

  it('on slices of the demo fixture file and on the other containers, with one place changed', () => {
    fc.assert(
      fc.property(
        demoSlices().chain((valid) => mutated(valid, jsonWithTraps)),
        (value) => answersAsSuperstruct(value, FixtureFile),
      ),
      { numRuns: 300 },
    );
    const { struct, valid } = otherContainers();
    fc.assert(
      fc.property(fc.oneof(mutated(valid, jsonWithTraps), jsonWithTraps), (value) => answersAsSuperstruct(value, struct)),
      { numRuns: 1000 },
    );
  });
});
