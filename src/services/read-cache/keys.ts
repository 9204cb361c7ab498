import type { KeyMode } from '../../domain/vocabulary.ts';
import type { EvaluationInput } from '../compliance/check-compliance.ts';
import type { MatrixInput } from '../read-api/compliance-matrix.ts';
import type { CrewAccessQuery } from '../visibility/access.ts';

/**
 * A cache key is the whole typed input of its read, written out by `keyOf`: every field, at any
 * depth, in the order of its name, so a field added to an input is in the key without a word here
 * (test/services/read-cache-keys.test.ts changes each field and wants another key). A catalogue
 * stands in its key by its version number, which names its definitions (catalogue-cache.ts).
 * The text is JSON's, of a copy whose objects have their fields added in the order of their names.
 */
export function keyOf(input: object): string {
  return JSON.stringify(inNameOrder(input));
}

/** `value` with every object in it, at any depth, copied with its fields in the order of their names. */
function inNameOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Set || value instanceof Map) throw new TypeError('a cache key holds no Set or Map: give it as a sorted array');
  if (Array.isArray(value)) return value.map(inNameOrder);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort()) copy[name] = inNameOrder((value as Record<string, unknown>)[name]);
  return copy;
}

/** The key of a live evaluation (check-compliance.ts, evaluateLive). */
export function evaluationKey(input: EvaluationInput): string {
  return keyOf({ ...input, catalogue: input.catalogue.version });
}

/** The key of a fleet-and-consent answer (visibility/access.ts). */
export function crewAccessKey(query: CrewAccessQuery): string {
  return keyOf(query);
}

/** The key of a vessel's compliance matrix (read-api/compliance-matrix.ts). */
export function matrixKey(input: MatrixInput): string {
  return keyOf({ ...input, catalogue: input.catalogue.version });
}

/** What the answer of a data-versioned GET depends on besides the data (src/http/conditional.ts). */
export interface AnswerRequest {
  /** The route's template and the path and query asked. */
  route: string;
  url: string;
  partnerId: string;
  mode: KeyMode;
  /** The key's scopes, sorted. */
  scopes: readonly string[];
  /** YYYY-MM-DD of the call. */
  today: string;
  /** The public origin links are built on. */
  baseUrl: string;
}

/** The key of a data-versioned GET's answer. */
export function answerKey(request: AnswerRequest): string {
  return keyOf(request);
}
