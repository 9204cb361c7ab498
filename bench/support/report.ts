import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** The machine a figure was measured on, printed with every benchmark. */
export function machineLine(): string {
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** Replaces (or appends) the section `## title` of docs/benchmarks.md with `body`. */
export function writeSection(title: string, body: string, file = 'docs/benchmarks.md'): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const heading = `## ${title}`;
  const start = text.indexOf(`${heading}\n`);
  const section = `${heading}\n\n${body.trim()}\n\n`;
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  writeFileSync(file, text.slice(0, start) + section + (next === -1 ? '' : text.slice(next + 1)));
}

export function table(head: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
