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
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
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
function scan(text: string): void {
  let pos = 0;
  const open: string[] = [];
  const ws = () => {
    while (pos < text.length && WS.has(text[pos]!)) pos++;
  };
  const string = () => {
    const start = pos;
    pos++;
    for (;;) {
      if (pos >= text.length) throw new Fail(start, 'Unterminated string starting at');
      const char = text[pos]!;
      if (char === '"') {
        pos++;
        return;
      }
      if (char < ' ') throw new Fail(pos, 'Invalid control character at');
      if (char === '\\') {
        const escaped = text[pos + 1];
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) throw new Fail(pos, 'Invalid \\uXXXX escape');
          pos += 6;
          continue;
        }
        if (escaped === undefined || !ESCAPES.has(escaped)) throw new Fail(pos, 'Invalid \\escape');
        pos += 2;
        continue;
      }
      pos++;
    }
  };
  const scalar = () => {
    if (text[pos] === '"') return string();
    for (const word of ['null', 'true', 'false']) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return;
      }
    }
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(text);
    if (!number) throw new Fail(pos, 'Expecting value');
    pos += number[0].length;
  };
  /** A member name and its colon; the value follows. */
  const key = () => {
    if (text[pos] !== '"') throw new Fail(pos, 'Expecting property name enclosed in double quotes');
    string();
    ws();
    if (text[pos] !== ':') throw new Fail(pos, "Expecting ':' delimiter");
    pos++;
    ws();
  };
  ws();
  for (;;) {
    // A value starts at pos.
    const char = text[pos];
    if (char === '{' || char === '[') {
      if (open.length >= MAX_JSON_DEPTH) throw new Fail(pos, `Nesting deeper than ${MAX_JSON_DEPTH} levels`);
      pos++;
      ws();
      if (text[pos] === (char === '{' ? '}' : ']')) pos++;
      else {
        open.push(char);
        if (char === '{') key();
        continue;
      }
    } else scalar();
    // A value ended: close containers, or move on to the next member of the innermost one.
    for (;;) {
      ws();
      const top = open.at(-1);
      if (top === undefined) {
        if (pos !== text.length) throw new Fail(pos, 'Extra data');
        return;
      }
      if (text[pos] === (top === '{' ? '}' : ']')) {
        pos++;
        open.pop();
        continue;
      }
      if (text[pos] !== ',') throw new Fail(pos, "Expecting ',' delimiter");
      pos++;
      ws();
      if (top === '{') key();
      break;
    }
  }
}

/** Code points before UTF-16 index `index`. */
function codePointOffset(text: string, index: number): number {
  return [...text.slice(0, index)].length;
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
