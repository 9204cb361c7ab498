import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { partnerShares } from '../../src/domain/diff-round.ts';

const fleet = (partnerId: string, vessels: string[]) => ({ partnerId, vessels: new Set(vessels) });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `v${from + i}`);

describe('splitting partners into shares of a diff round', () => {
  it('keeps partners of one fleet together and balances the rest', () => {
    const partners = [
      fleet('p0', range(0, 300)),
      fleet('p1', range(300, 600)),
      fleet('p2', range(600, 900)),
      fleet('p3', range(0, 300)), // p0's fleet
      fleet('p4', range(900, 1000)),
    ];
    assert.deepEqual(partnerShares(partners, 2), [
      ['p0', 'p2', 'p3'],
      ['p1', 'p4'],
    ]);
    assert.deepEqual(partnerShares(partners, 1), [['p0', 'p1', 'p2', 'p3', 'p4']]);
    assert.equal(partnerShares(partners.slice(0, 2), 3).length, 2, 'no more shares than partners');
  });

  it('puts every partner in exactly one share, and no share is empty', () => {
    const partner = fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => range(Math.min(a, b), Math.max(a, b)));
    fc.assert(
      fc.property(fc.array(partner, { maxLength: 8 }), fc.integer({ min: 1, max: 5 }), (fleets, count) => {
        const partners = fleets.map((vessels, i) => fleet(`p${i}`, vessels));
        const shares = partnerShares(partners, count);
        assert.ok(shares.length <= Math.max(1, count));
        assert.ok(shares.every((share) => share.length > 0) || partners.length === 0);
        assert.deepEqual(shares.flat().sort(), partners.map((p) => p.partnerId).sort());
      }),
    );
  });
});
