import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Incoming } from './apply-changes.ts';

/** The longest line read as a change; a longer one is reported as rejected without being held in memory whole. */
export const MAX_LINE_CHARS = 1024 * 1024;

/**
 * The changes of an NDJSON stream, one per non-blank line, each with its origin (`name:line`).
 * Read as it comes: memory holds one line at a time, whatever the size of the input.
 */
export async function* ndjsonChanges(input: NodeJS.ReadableStream, name: string): AsyncGenerator<Incoming> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    // A line past the bound becomes a change that cannot parse, so it is rejected with its origin.
    yield { origin: `${name}:${number}`, text: line.length > MAX_LINE_CHARS ? `line of ${line.length} characters` : line };
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
