/**
 * Where and why a JSON text fails to parse, in the words of Python's json module, which is what
 * FastAPI puts in a `json_invalid` issue (`loc: ["body", pos]`, `ctx.error`). V8's JSON.parse does
 * not always give a position, so the text is scanned again by this small checker. It also bounds
 * the nesting of accepted bodies.
 */
export interface JsonErrorAt {
  /** Offset in characters (code points), as Python counts. */
  pos: number;
  msg: string;
}

class Fail extends Error {
  constructor(readonly at: number, readonly reason: string) {
    super(reason);
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** Deepest nesting of arrays and objects accepted in a request body. */
export const MAX_JSON_DEPTH = 32;

/**
 * Walks the text once, without recursion (a few thousand levels of nesting must not exhaust the
 * stack), and throws at the first error: a syntax error, or nesting deeper than MAX_JSON_DEPTH.
 */
function scan(s: string): void {
  let i = 0;
  const open: string[] = [];
  const ws = () => {
    while (i < s.length && WS.has(s[i]!)) i++;
  };
  const string = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= s.length) throw new Fail(start, 'Unterminated string starting at');
      const c = s[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < ' ') throw new Fail(i, 'Invalid control character at');
      if (c === '\\') {
        const e = s[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) throw new Fail(i, 'Invalid \\uXXXX escape');
          i += 6;
          continue;
        }
        if (e === undefined || !ESCAPES.has(e)) throw new Fail(i, 'Invalid \\escape');
        i += 2;
        continue;
      }
      i++;
    }
  };
  const scalar = () => {
    if (s[i] === '"') return string();
    for (const word of ['null', 'true', 'false']) {
      if (s.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (!m) throw new Fail(i, 'Expecting value');
    i += m[0].length;
  };
  /** A member name and its colon; the value follows. */
  const key = () => {
    if (s[i] !== '"') throw new Fail(i, 'Expecting property name enclosed in double quotes');
    string();
    ws();
    if (s[i] !== ':') throw new Fail(i, "Expecting ':' delimiter");
    i++;
    ws();
  };
  ws();
  for (;;) {
    // A value starts at i.
    const c = s[i];
    if (c === '{' || c === '[') {
      if (open.length >= MAX_JSON_DEPTH) throw new Fail(i, `Nesting deeper than ${MAX_JSON_DEPTH} levels`);
      i++;
      ws();
      if (s[i] === (c === '{' ? '}' : ']')) i++;
      else {
        open.push(c);
        if (c === '{') key();
        continue;
      }
    } else scalar();
    // A value ended: close containers, or move on to the next member of the innermost one.
    for (;;) {
      ws();
      const top = open.at(-1);
      if (top === undefined) {
        if (i !== s.length) throw new Fail(i, 'Extra data');
        return;
      }
      if (s[i] === (top === '{' ? '}' : ']')) {
        i++;
        open.pop();
        continue;
      }
      if (s[i] !== ',') throw new Fail(i, "Expecting ',' delimiter");
      i++;
      ws();
      if (top === '{') key();
      break;
    }
  }
}

/** Code points before UTF-16 index `i`. */
function codePointOffset(s: string, i: number): number {
  return [...s.slice(0, i)].length;
}

/**
 * The first error of a JSON text, or null when it is valid JSON nested at most MAX_JSON_DEPTH
 * levels. Used on texts JSON.parse refused (where and why, for `json_invalid`) and on texts it
 * accepted (nesting).
 */
export function locateJsonError(text: string): JsonErrorAt | null {
  try {
    scan(text);
    return null;
  } catch (err) {
    if (err instanceof Fail) return { pos: codePointOffset(text, err.at), msg: err.reason };
    throw err;
  }
}
