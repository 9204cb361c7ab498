import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';

/** The machine a figure was measured on, printed with every benchmark. */
export function machineLine(): string {
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/**
 * Writes a benchmark's latest run, `body` under `# title`, to bench/results/<title in kebab case>.md,
 * replacing the run before (git keeps the earlier ones). docs/performance.md quotes the figures.
 */
export function writeSection(title: string, body: string): void {
  const name = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(join('bench/results', `${name}.md`), `# ${title}\n\n${body.trim()}\n`);
}

export function table(head: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
