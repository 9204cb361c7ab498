/**
 * Deterministic randomness and dates of the demo generator: the project's seeded PRNG
 * (src/services/generate/random.ts), one stream per label so that changing one crew member does
 * not shift every value after it, and no clock: every date is relative to REFERENCE_DATE.
 */
import { addDays } from '../../src/domain/compliance/dates.ts';
import { createRng, type Rng as BaseRng } from '../../src/services/generate/random.ts';

export { addDays };

export const REFERENCE_DATE = '2026-11-22';
export const REF = REFERENCE_DATE;
const SEED = 0x5eac0de;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The project's PRNG seeded from a label, with the draws the generator needs. */
export class Rng {
  private readonly base: BaseRng;
  constructor(label: string) {
    this.base = createRng((fnv1a(label) ^ SEED) >>> 0);
  }
  float(): number {
    return this.base.next();
  }
  /** An integer from lo to hi, both included. */
  int(lo: number, hi: number): number {
    return lo + this.base.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.base.chance(p);
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from empty list');
    return this.base.pick(items);
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
  letters(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(65 + this.int(0, 25));
    return s;
  }
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    const out: T[] = [];
    while (out.length < n && copy.length > 0) out.push(copy.splice(this.base.int(copy.length), 1)[0]!);
    return out;
  }
}

const range = (spec: string): [number, number] => {
  const [lo, hi = lo] = spec.split('-').map(Number) as [number, number?];
  return [lo, hi];
};

/**
 * Draws a string from a pattern of data/countries.json: literal text and `{digits:N}`,
 * `{digits:A-B}` (a random count of digits), `{letters:N}`, `{int:A-B}`, `{pick:a|b|c}`, drawn left
 * to right.
 */
export function drawPattern(pattern: string, r: Rng): string {
  return pattern.replace(/\{(\w+):([^}]*)\}/g, (_, kind: string, arg: string) => {
    switch (kind) {
      case 'digits': {
        const [lo, hi] = range(arg);
        return r.digits(lo === hi ? lo : r.int(lo, hi));
      }
      case 'letters':
        return r.letters(Number(arg));
      case 'int': {
        const [lo, hi] = range(arg);
        return String(r.int(lo, hi));
      }
      case 'pick':
        return r.pick(arg.split('|'));
      default:
        throw new Error(`unknown pattern token {${kind}:${arg}}`);
    }
  });
}

export function addYears(d: string, n: number): string {
  const y = +d.slice(0, 4) + n;
  const md = d.slice(5) === '02-29' ? '02-28' : d.slice(5);
  return `${String(y).padStart(4, '0')}-${md}`;
}

export function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

/** A date-time on day `d` between 06:00 and 19:59 UTC. */
export function stamp(d: string, rng: Rng): string {
  return `${d}T${String(rng.int(6, 19)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}Z`;
}
