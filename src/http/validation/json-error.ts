/**
 * Where and why a JSON text fails to parse, in the words of Python's json module, which is what
 * FastAPI puts in a `json_invalid` issue (`loc: ["body", pos]`, `ctx.error`). V8's JSON.parse does
 * not always give a position, so the text is scanned again by this small recursive-descent
 * checker, only after JSON.parse has failed.
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

function scan(s: string): void {
  let i = 0;
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
  const value = (): void => {
    const c = s[i];
    if (c === '"') return string();
    if (c === '{') return object();
    if (c === '[') return array();
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
  const object = () => {
    i++;
    ws();
    if (s[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      if (s[i] !== '"') throw new Fail(i, 'Expecting property name enclosed in double quotes');
      string();
      ws();
      if (s[i] !== ':') throw new Fail(i, "Expecting ':' delimiter");
      i++;
      ws();
      value();
      ws();
      if (s[i] === '}') {
        i++;
        return;
      }
      if (s[i] !== ',') throw new Fail(i, "Expecting ',' delimiter");
      i++;
      ws();
    }
  };
  const array = () => {
    i++;
    ws();
    if (s[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (s[i] === ']') {
        i++;
        return;
      }
      if (s[i] !== ',') throw new Fail(i, "Expecting ',' delimiter");
      i++;
      ws();
    }
  };
  ws();
  value();
  ws();
  if (i !== s.length) throw new Fail(i, 'Extra data');
}

/** Code points before UTF-16 index `i`. */
function codePointOffset(s: string, i: number): number {
  return [...s.slice(0, i)].length;
}

/** The first error of a text JSON.parse refused; null if this checker accepts it (NaN and the like). */
export function locateJsonError(text: string): JsonErrorAt | null {
  try {
    scan(text);
    return null;
  } catch (err) {
    if (err instanceof Fail) return { pos: codePointOffset(text, err.at), msg: err.reason };
    throw err;
  }
}
