import { wireTime } from '../../domain/clock.ts';
import { toComplianceWire, type ComplianceCheckWire, type ComplianceEvaluation, type WireOptions } from '../../domain/compliance/index.ts';

/**
 * How long an answer's signed links may be reused, in seconds: a reused link was signed at most
 * this long before the call, so it still holds at least `ttl - LINK_REUSE_SECONDS` after it, and
 * never one already past its expiry (docs/api.md, "The compliance check").
 */
export const LINK_REUSE_SECONDS = 10;

/**
 * A check's JSON around its `as_of`, the one field that changes on every call, as UTF-8 bytes: the
 * answer is sent as bytes, so a joined answer is one copy, not a string Koa measures and encodes
 * again on every call (docs/benchmarks.md).
 */
export interface CheckText {
  before: Buffer;
  after: Buffer;
}

/**
 * The JSON of `wire` in two parts, so that `before + JSON.stringify(as_of) + after` is exactly
 * `JSON.stringify(wire)` in UTF-8: the fields before `as_of`, then everything after it.
 */
export function splitCheckText(wire: ComplianceCheckWire): CheckText {
  const { crew_unique_id, vessel_id, position_name, ...rest } = wire;
  return {
    before: Buffer.from(`${JSON.stringify({ crew_unique_id, vessel_id, position_name }).slice(0, -1)},"as_of":`),
    // JSON.stringify leaves out a field whose value is undefined: `as_of` here.
    after: Buffer.from(`,${JSON.stringify({ ...rest, as_of: undefined }).slice(1)}`),
  };
}

/** The answer's JSON, UTF-8. */
export function joinCheckText(text: CheckText, asOf: string): Buffer {
  // `"YYYY-MM-DDTHH:MM:SSZ"`: ASCII, one byte per character.
  return Buffer.concat([text.before, Buffer.from(JSON.stringify(wireTime(asOf)), 'latin1'), text.after]);
}

/** One rendering kept: its text and, when it holds links, the second they were signed at. */
interface Rendered {
  text: CheckText;
  signedAt: number | null;
}

/** Renderings kept per evaluation: one per partner key and what it may see, a few at most. */
const PER_EVALUATION = 16;

/**
 * The answers of the compliance check rendered once per evaluation and reader, not per call
 * (docs/benchmarks.md): keyed by the evaluation object (reused while the data version holds, so
 * a new version's evaluation starts afresh and old ones are collected with it) and by everything
 * else the text depends on except `as_of`. A rendering with links is reused for
 * LINK_REUSE_SECONDS after it signed them, then signed again.
 */
export class CheckAnswers {
  readonly #held = new WeakMap<ComplianceEvaluation, Map<string, Rendered>>();

  /**
   * The JSON of the check (UTF-8), from a held rendering when one fits. `readerKey` names what,
   * besides the evaluation and `as_of`, the text depends on (crew member, date, partner, key, mode,
   * scopes, consents, origin, link key); `withLinks` is whether it holds any signed link;
   * `nowSeconds` the call's clock; `render` builds the wire with links signed at `nowSeconds`.
   */
  text(
    evaluation: ComplianceEvaluation,
    readerKey: string,
    asOf: string,
    withLinks: boolean,
    nowSeconds: number,
    render: () => ComplianceCheckWire,
  ): Buffer {
    let byReader = this.#held.get(evaluation);
    if (!byReader) this.#held.set(evaluation, (byReader = new Map<string, Rendered>()));
    const held = byReader.get(readerKey);
    if (held && (held.signedAt === null || (held.signedAt <= nowSeconds && nowSeconds - held.signedAt <= LINK_REUSE_SECONDS))) {
      return joinCheckText(held.text, asOf);
    }
    const text = splitCheckText(render());
    if (byReader.size >= PER_EVALUATION) byReader.clear();
    byReader.set(readerKey, { text, signedAt: withLinks ? nowSeconds : null });
    return joinCheckText(text, asOf);
  }
}

/** The check's JSON built anew (the fallback, and every call without reuse), UTF-8. */
export function checkText(evaluation: ComplianceEvaluation, options: WireOptions): Buffer {
  return Buffer.from(JSON.stringify(toComplianceWire(evaluation, options)));
}
