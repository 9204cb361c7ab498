import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A token naming a path from the root of the checkout: it starts with one of its top folders. */
const TOP = /^(?:src|test|bench|scripts|deploy|examples|docs|fixtures|data|bin|\.ci)\//;
/** A file of code named without its folder (`run-delivery.ts`) or from inside src/ (`store/connect.ts`). */
const CODE = /^[\w./@-]+\.(?:ts|mjs)$/;
/** Fenced code blocks (``` or ~~~). */
const FENCE = /^ {0,3}(```|~~~)[^\n]*\n([\s\S]*?)^ {0,3}\1/gm;
/** Inline code spans, opened and closed by runs of as many backticks, across line breaks. */
const SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', '.git', '.build', '.bench', '.tmp'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(root, path)];
  });
}

/** A path as named, with what can follow it stripped: a line (`:12`, `:12-20`, `:12:5`) or an anchor (`#metrics`). */
interface Named {
  path: string;
  line?: number;
}

/**
 * What a page names, to be found in the checkout: `paths` from the root (every token of a code
 * span or a code block that starts with a top folder, `src/…`, commands' arguments included,
 * and relative links resolved from the page) and `code`, files of code named alone in a span by
 * their name or their path inside src/. Placeholders (`<id>`, `*`, `{…}`, `$X`, `…`) are not
 * names, nor are the SQLite stores svc makes at run time (`data/svc.db`).
 */
function namedIn(page: string, text: string): { paths: Named[]; code: string[] } {
  const paths = new Map<string, Named>();
  const code = new Set<string>();
  const blocks = [...text.matchAll(FENCE)].map((m) => m[2]!);
  const spans = [...text.replace(FENCE, '').matchAll(SPAN)].map((m) => m[2]!.trim());
  for (const token of [...blocks, ...spans].flatMap((s) => s.split(/\s+/))) {
    const name = token
      .replace(/^['"`([=]+/, '')
      .replace(/^--[\w-]+=/, '')
      .replace(/[.,:;)'"`\]]+$/, '');
    if (!TOP.test(name) || /[<>*{}$…]|\.\./.test(name)) continue;
    const [, path, line] = /^(.*?)(?:#.*|:(\d+)(?:[-:]\d+)*)?$/.exec(name)!;
    if (/\.db$/.test(path!)) continue;
    const key = line ? `${path}:${line}` : path!;
    paths.set(key, line ? { path: path!, line: Number(line) } : { path: path! });
  }
  for (const span of spans) {
    const name = span.replace(/[.,:;)]+$/, '');
    if (!TOP.test(name) && CODE.test(name) && !name.startsWith('.') && !name.includes('..')) code.add(name);
  }
  for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target!) || target!.startsWith('/')) continue;
    const path = join(dirname(page), target!);
    paths.set(path, { path });
  }
  return {
    paths: [...paths.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.line ?? 0) - (b.line ?? 0))),
    code: [...code].sort(),
  };
}

/** Why a named path is not in the checkout, or undefined when it is (with its line, if one is named). */
function missing({ path, line }: Named): string | undefined {
  const full = join(root, path);
  if (!existsSync(full)) return path;
  if (line === undefined) return undefined;
  const lines = readFileSync(full, 'utf8').split('\n').length;
  return line <= lines ? undefined : `${path}:${line} (${lines} lines)`;
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
      '`consent.json`, `src/app.ts:12-20`, `docs/api.md#errors`, `npx tsx bench/a.ts --out=deploy/b.yml`, ``a `test/c.ts` b``,\n' +
      '`CI=true npm test --\ntest/d.test.ts`, [ops](operations.md#metrics) and <https://x.test/a.md>.\n\n' +
      '```sh\nsvc ingest fixtures/e.ndjson\n```\n';
    assert.deepEqual(namedIn('docs/a.md', text), {
      paths: [
        { path: 'bench/a.ts' },
        { path: 'deploy/b.yml' },
        { path: 'docs/api.md' },
        { path: 'docs/operations.md' },
        { path: 'fixtures/e.ndjson' },
        { path: 'src/app.ts', line: 12 },
        { path: 'src/main.ts' },
        { path: 'test/c.ts' },
        { path: 'test/d.test.ts' },
      ],
      code: ['run-delivery.ts', 'store/connect.ts'],
    });
  });

  it('finds a named line past the end of its file missing, and one within it present', () => {
    const length = readFileSync(join(root, 'src/main.ts'), 'utf8').split('\n').length;
    assert.equal(missing({ path: 'src/main.ts', line: length }), undefined);
    assert.equal(missing({ path: 'src/main.ts', line: length + 1 }), `src/main.ts:${length + 1} (${length} lines)`);
    assert.equal(missing({ path: 'src/no-such-file.ts' }), 'src/no-such-file.ts');
  });

  const files = filesUnder(root);
  for (const page of pages) {
    it(`${page}: every file or folder it names is in the checkout`, () => {
      const { paths, code } = namedIn(page, readFileSync(join(root, page), 'utf8'));
      const absent = [
        ...paths.map(missing).filter((why) => why !== undefined),
        ...code.filter((name) => !files.some((file) => file === name || file.endsWith(`/${name}`))),
      ];
      assert.deepEqual(absent, []);
    });
  }
});
