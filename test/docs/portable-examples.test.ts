import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** GNU-only forms of date(1) that fail on macOS's BSD date: `-d` to shift a date, `%N` for fractions of a second. */
const GNU_DATE = /\bdate\b[^|;`)\n]*(?:\s-d\s|\s-u\s+-d\s|--date|%\d*N)/;

function shellBlocks(file: string): { line: number; text: string }[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found: { line: number; text: string }[] = [];
  let inShell = false;
  lines.forEach((text, i) => {
    if (/^```(sh|bash|shell)\s*$/.test(text)) inShell = true;
    else if (text.startsWith('```')) inShell = false;
    else if (inShell) found.push({ line: i + 1, text });
  });
  return found;
}

describe('shell examples in the docs', () => {
  it('use no GNU-only date options, so they run on macOS as on Linux', () => {
    const files = [
      'README.md',
      'examples/README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const gnu = files.flatMap((file) =>
      shellBlocks(file)
        .filter((l) => GNU_DATE.test(l.text))
        .map((l) => `${file}:${l.line}: ${l.text}`),
    );
    assert.deepEqual(gnu, []);
  });
});
