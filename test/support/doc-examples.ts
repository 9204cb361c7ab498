import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRng } from '../../src/services/generate/random.ts';

/**
 * The shell examples of README.md, docs/*.md and examples/README.md, as their markers
 * (`<!-- example… -->` on the line before each fence) declare them: docs/architecture.md,
 * "Examples in the docs".
 */

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

export type BlockKind = 'run' | 'continued' | 'background' | 'page-setup' | 'skip';

export interface ShellBlock {
  /** `docs/webhooks.md:42`: the fence's line. */
  where: string;
  file: string;
  kind: BlockKind;
  code: string;
  /** Error statuses the block's calls are documented to answer (`answers 404`). */
  answers: number[];
  /** Why a skipped block is not run, as its marker says. */
  reason?: string;
}

/** One example: a `run` block and the `continued` blocks after it, run in one shell. */
export interface DocExample {
  where: string;
  file: string;
  /** The page's `page-setup` blocks, which a reader keeps in the shell for that page. */
  setup: string[];
  code: string;
  answers: number[];
}

export interface DocExamples {
  examples: DocExample[];
  /** Long-running commands (a receiver), each once, whatever page shows it. */
  background: ShellBlock[];
  skipped: ShellBlock[];
}

/** The Markdown files whose examples readers copy, in reading order. */
export function documentedFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(root, 'docs', f));
  return [join(root, 'README.md'), ...docs, join(root, 'examples', 'README.md')];
}

function parseMarker(text: string, where: string): Pick<ShellBlock, 'kind' | 'answers' | 'reason'> {
  const m = /^<!-- example(?::\s*(.*?))?\s*-->$/.exec(text.trim());
  if (!m)
    throw new Error(
      `${where}: a shell block needs a marker on the line before it, e.g. <!-- example --> or <!-- example: skip: why -->; found ${JSON.stringify(text)}`,
    );
  const spec = (m[1] ?? '').trim();
  if (spec === '') return { kind: 'run', answers: [] };
  const skip = /^skip:\s*(\S.*)$/.exec(spec);
  if (skip) return { kind: 'skip', answers: [], reason: skip[1] };
  if (spec === 'background' || spec === 'page-setup') return { kind: spec, answers: [] };
  const run = /^(continued)?(?:,?\s*answers((?:\s+\d{3})+))?$/.exec(spec);
  if (!run || (!run[1] && !run[2])) throw new Error(`${where}: unknown example marker ${JSON.stringify(text.trim())}`);
  return { kind: run[1] ? 'continued' : 'run', answers: (run[2] ?? '').trim().split(/\s+/).filter(Boolean).map(Number) };
}

/** Every shell block of one Markdown file, with its marker; throws on a block without one, or a marker without a block. */
export function shellBlocks(path: string, root: string): ShellBlock[] {
  const file = relative(root, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,})\s*(\S*)/.exec(lines[i]!);
    if (!fence) {
      if (/^<!-- example/.test(lines[i]!.trim()) && !/^`{3,}/.test(lines[i + 1] ?? '')) {
        throw new Error(`${file}:${i + 1}: an example marker must be on the line right before a fenced block`);
      }
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && l.startsWith(fence[1]!));
    if (end < 0) throw new Error(`${file}:${i + 1}: fence never closed`);
    const where = `${file}:${i + 1}`;
    const language = fence[2]!;
    const before = lines[i - 1] ?? '';
    if (SHELL_LANGUAGES.has(language)) {
      blocks.push({ where, file, code: lines.slice(i + 1, end).join('\n'), ...parseMarker(before, where) });
    } else if (/^<!-- example/.test(before.trim())) {
      throw new Error(
        `${where}: example marker on a ${language || 'plain'} block; only shell blocks (${[...SHELL_LANGUAGES].join(', ')}) are run`,
      );
    }
    i = end;
  }
  return blocks;
}

/** A block's commands without its comment lines: two pages may show one receiver, each with its own comment. */
const command = (code: string) =>
  code
    .split('\n')
    .filter((l) => !/^\s*(#|$)/.test(l))
    .join('\n');

/** Every example of the documented files, grouped and in document order. */
export function collectExamples(root: string): DocExamples {
  const out: DocExamples = { examples: [], background: [], skipped: [] };
  for (const path of documentedFiles(root)) {
    const blocks = shellBlocks(path, root);
    const setup = blocks.filter((b) => b.kind === 'page-setup').map((b) => b.code);
    let current: DocExample | undefined;
    for (const b of blocks) {
      if (b.kind === 'skip') out.skipped.push(b);
      else if (b.kind === 'background') {
        if (!out.background.some((o) => command(o.code) === command(b.code))) out.background.push(b);
      } else if (b.kind === 'run') {
        current = { where: b.where, file: b.file, setup, code: b.code, answers: [...b.answers] };
        out.examples.push(current);
      } else if (b.kind === 'continued') {
        if (!current) throw new Error(`${b.where}: "continued" with no example before it on the page`);
        current.code += `\n${b.code}`;
        current.answers.push(...b.answers);
      }
    }
  }
  return out;
}

/** The demo's addresses in the docs, and where the test's demo listens instead. */
export interface DemoPorts {
  api: number;
  receiver: number;
}

/** What a reader does on other ports: the API's 8080 and the receiver's 8787 written as theirs. */
export function onPorts(code: string, ports: DemoPorts): string {
  return code.replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.api}`).replaceAll('8787', String(ports.receiver));
}

/** A seeded shuffle (Fisher-Yates over the generator's seeded random numbers): the same seed gives the same order. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const rng = createRng(seed);
  const out = [...items];
  for (let last = out.length - 1; last > 0; last--) {
    const pick = rng.int(last + 1);
    [out[last], out[pick]] = [out[pick]!, out[last]!];
  }
  return out;
}
