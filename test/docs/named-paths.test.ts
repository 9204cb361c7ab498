import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The top folders of the checkout a doc names files in. */
const TOP = /^(?:src|test|bench|scripts|docs|data|fixtures|examples|bin|\.ci)\/[\w./@-]*$/;
/** A file of code named without its folder (`run-delivery.ts`) or from inside src/ (`store/connect.ts`). */
const CODE = /^[\w./@-]+\.(?:ts|mjs)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', '.git', '.build', '.bench', '.tmp'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(root, path)];
  });
}

/**
 * What a page names, to be found in the checkout: `paths` from the root (code spans such as
 * `src/…`, and relative links resolved from the page) and `code`, files of code named by their
 * name or their path inside src/. Placeholders (`<id>`, `*`) are not names, nor are the SQLite
 * stores svc makes at run time (`data/svc.db`).
 */
function namedIn(page: string, text: string): { paths: string[]; code: string[] } {
  const paths = new Set<string>();
  const code = new Set<string>();
  for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
    const name = span!.replace(/[.,:;)]+$/, '');
    if (name.includes('..') || /\.db$/.test(name)) continue;
    if (TOP.test(name)) paths.add(name);
    else if (CODE.test(name) && !name.startsWith('.')) code.add(name);
  }
  for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target!) || target!.startsWith('/')) continue;
    paths.add(join(dirname(page), target!));
  }
  return { paths: [...paths].sort(), code: [...code].sort() };
}

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the docs name only files that exist', () => {
  it('finds the paths and files of code a page names', () => {
    const text =
      'See `src/main.ts`, `.build/<id>/js/`, `bench/*.ts`, `data/svc.db`, `store/connect.ts`, `run-delivery.ts`, ' +
      '`consent.json`, [ops](operations.md#metrics) and <https://x.test/a.md>.';
    assert.deepEqual(namedIn('docs/a.md', text), {
      paths: ['docs/operations.md', 'src/main.ts'],
      code: ['run-delivery.ts', 'store/connect.ts'],
    });
  });

  const files = filesUnder(root);
  for (const page of pages) {
    it(`${page}: every file or folder it names is in the checkout`, () => {
      const { paths, code } = namedIn(page, readFileSync(join(root, page), 'utf8'));
      const missing = [
        ...paths.filter((path) => !existsSync(join(root, path))),
        ...code.filter((name) => !files.some((file) => file === name || file.endsWith(`/${name}`))),
      ];
      assert.deepEqual(missing, []);
    });
  }
});
