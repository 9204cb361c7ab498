/*
 * Limits on the shape of parsed JSON, checked before a schema reads it: superstruct (and
 * JSON.stringify) walk a value recursively, so 100,000 nested arrays overflow the stack;
 * Postgres text cannot hold NUL, which SQLite stores; and a lone UTF-16 surrogate (`"\ud800"`) is
 * stored by both as U+FFFD, another text than the one sent. Walked with a stack of its own, never recursion.
 */

/** How deeply a document may nest objects and arrays; the fixture schema itself goes 7 levels down. */
export const MAX_JSON_DEPTH = 32;

/** A value of a JSON document refused for its shape, at its path (`['crew', 3, 'name']`). */
export interface ShapeProblem {
  path: (string | number)[];
  message: string;
}

const NUL_MESSAGE = 'text must not contain NUL characters';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag: code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Any surrogate, paired or not: most text has none, and this is quicker to rule out than LONE_SURROGATE. */
const SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATE_MESSAGE = 'text must be valid Unicode (a lone surrogate, \\ud800 to \\udfff, cannot be stored)';

/**
 * Every string (value or key) holding NUL or a lone surrogate, every object or array nested deeper than `maxDepth`
 * (reported at the level that crosses the limit, and not read further), and every key named in
 * `refusedKeys` (at its own path).
 */
export function jsonShapeProblems(document: unknown, maxDepth = MAX_JSON_DEPTH, refusedKeys: readonly string[] = []): ShapeProblem[] {
  const found: ShapeProblem[] = [];
  const pending: Array<{ value: unknown; path: (string | number)[] }> = [{ value: document, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push({ path, message: NUL_MESSAGE });
      else if (LONE_SURROGATE.test(value)) found.push({ path, message: SURROGATE_MESSAGE });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= maxDepth) {
      found.push({ path, message: `nested deeper than ${maxDepth} levels` });
      continue;
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    if (entries.some(([key]) => typeof key === 'string' && key.includes('\u0000')))
      found.push({ path, message: 'keys must not contain NUL characters' });
    else if (entries.some(([key]) => typeof key === 'string' && LONE_SURROGATE.test(key)))
      found.push({ path, message: 'keys must be valid Unicode' });
    for (const [key] of entries)
      if (typeof key === 'string' && refusedKeys.includes(key))
        found.push({ path: [...path, key], message: `a "${key}" key is not allowed` });
    for (let i = entries.length - 1; i >= 0; i -= 1) pending.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
  }
  return found;
}

/**
 * Whether jsonShapeProblems finds nothing in `document`, decided without its report: no path and
 * no entry is made for each value, and the first problem ends the walk. Ingestion asks it of every
 * change and walks with jsonShapeProblems only a change it refuses (docs/ingest.md, "Speed");
 * test/domain/json-shape-clean.test.ts holds the two equal on generated values. Recursive, but no
 * deeper than `maxDepth` containers: a container at that depth is a problem and not read further.
 */
export function jsonShapeClean(document: unknown, maxDepth = MAX_JSON_DEPTH, refusedKeys: readonly string[] = []): boolean {
  const goodText = (text: string) => !text.includes('\u0000') && !(SURROGATE.test(text) && LONE_SURROGATE.test(text));
  const clean = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') return goodText(value);
    if (typeof value !== 'object' || value === null) return true;
    if (depth >= maxDepth) return false;
    if (Array.isArray(value)) {
      for (const item of value) if (!clean(item, depth + 1)) return false;
      return true;
    }
    for (const key of Object.keys(value)) {
      if (!goodText(key) || refusedKeys.includes(key)) return false;
      if (!clean((value as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return true;
  };
  return clean(document, 0);
}
