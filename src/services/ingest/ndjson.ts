import { createReadStream } from 'node:fs';
import type { Incoming } from './apply-changes.ts';

/** The longest line read as a change, in bytes; a longer one is rejected without being held in memory whole. */
export const MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * The lines of a byte stream, split at LF (a CR before it is dropped): each the line's UTF-8 text,
 * or only its length when it is longer than `maxBytes` (its bytes past the bound are counted, not kept).
 */
async function* boundedLines(
  input: AsyncIterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<{ text: string } | { bytes: number }> {
  let parts: Buffer[] = [];
  let length = 0;
  let endsInCr = false;
  const add = (piece: Buffer) => {
    // Past the bound (and a CR), the line's bytes are only counted: what was kept of it is let go.
    if (length + piece.length <= maxBytes + 1) parts.push(piece);
    else parts = [];
    length += piece.length;
    if (piece.length > 0) endsInCr = piece[piece.length - 1] === CR;
  };
  const line = () => {
    const end = endsInCr ? length - 1 : length;
    const text = end <= maxBytes ? Buffer.concat(parts).toString('utf8', 0, end) : null;
    parts = [];
    length = 0;
    endsInCr = false;
    return text === null ? { bytes: end } : { text };
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, start)) {
      add(bytes.subarray(start, at));
      yield line();
      start = at + 1;
    }
    add(bytes.subarray(start));
  }
  if (length > 0) yield line();
}

/**
 * The changes of an NDJSON stream, one per non-blank line, each with its origin (`name:line`).
 * Read as it comes: memory holds one line at a time, whatever the size of the input, and at most
 * MAX_LINE_BYTES of a longer line, which becomes a change marked `oversize` (rejected unread).
 */
export async function* ndjsonChanges(input: NodeJS.ReadableStream, name: string, maxBytes = MAX_LINE_BYTES): AsyncGenerator<Incoming> {
  let number = 0;
  for await (const line of boundedLines(input as AsyncIterable<Buffer | string>, maxBytes)) {
    number += 1;
    const origin = `${name}:${number}`;
    if ('bytes' in line) yield { origin, text: '', oversize: { bytes: line.bytes, limit: maxBytes } };
    else if (line.text.trim() !== '') yield { origin, text: line.text };
  }
}

/** The changes of several files in turn (`-` is standard input). */
export async function* ndjsonFiles(paths: readonly string[], stdin: NodeJS.ReadableStream | undefined): AsyncGenerator<Incoming> {
  for (const path of paths) {
    const input = path === '-' ? stdin : createReadStream(path);
    if (!input) throw new Error('no standard input to read');
    yield* ndjsonChanges(input, path === '-' ? 'stdin' : path);
  }
}
