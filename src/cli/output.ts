import { wireTime } from '../domain/clock.ts';
import type { CliDeps } from './context.ts';

/** One row of a list command: snake_case keys, the same in the table header and in --json. */
export type ListRow = Record<string, string | number | boolean | null | readonly string[]>;

/** A stored instant as list commands print it: the wire's precision (UTC, whole seconds, `Z`); null stays null. */
export function timeCell(at: string | null): string | null {
  return at === null ? null : wireTime(at);
}

function cell(value: ListRow[string]): string {
  if (value === null || value === '') return '-';
  if (Array.isArray(value)) return value.join(',') || '-';
  // One row per line, one column per tab, whatever a stored message holds.
  return String(value).replace(/[\t\r\n]+/g, ' ');
}

/**
 * Prints a list command's result: with `json`, an array of objects (`[]` when empty); otherwise a
 * header row and one tab-separated line per row, `-` for an empty value. An empty result also says
 * so on stderr, so a script reading stdout sees nothing (or `[]`) and a person sees why.
 */
export function printList(deps: CliDeps, rows: readonly ListRow[], options: { json?: boolean; empty: string }): void {
  if (options.json) {
    deps.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else if (rows.length > 0) {
    const columns = Object.keys(rows[0]!);
    const lines = [columns.join('\t'), ...rows.map((r) => columns.map((c) => cell(r[c] ?? null)).join('\t'))];
    deps.stdout.write(`${lines.join('\n')}\n`);
  }
  if (rows.length === 0) deps.stderr.write(`${options.empty}\n`);
}

/** The `--json` option every list command takes. */
export const JSON_OPTION = ['--json', 'print an array of JSON objects instead of a table'] as const;
