import { spawnSync } from 'node:child_process';
import { requiredTool } from './required-tool.ts';

/** Debian's promtool (package prometheus); SVC_PROMTOOL names another place. */
export const promtool = requiredTool('promtool', 'prometheus', ['/usr/bin/promtool', '/usr/local/bin/promtool'], process.env.SVC_PROMTOOL);

/** A reason to skip a promtool check, or false (test/support/required-tool.ts). */
export function promtoolMissing(): string | false {
  return promtool.skip;
}

/** Prometheus's own parser and linter over an exposition (`promtool check metrics`): its complaints, empty when none. */
export function promtoolProblems(exposition: string): string {
  const res = spawnSync(promtool.path(), ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
  if (res.status === 0) return '';
  return `${res.stdout}${res.stderr}`.trim() || `promtool exited ${res.status}`;
}

/**
 * The value of one sample, once promtool has accepted the text: `name{a="x",b="y"} 3` with the
 * given labels (all of them, in any order). Undefined when absent.
 */
export function sampleValue(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.keys(got).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => got[k] === v))
      return Number(m[3]);
  }
  return undefined;
}
