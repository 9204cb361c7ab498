import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ENV_VARS, loadConfig } from '../../src/config/config.ts';

/** Rows of the README's configuration table: variable names of the first cell, and the default cell. */
function configurationTable(): Array<{ names: string[]; defaultCell: string }> {
  const text = readFileSync('README.md', 'utf8');
  const lines = text.slice(text.indexOf('## Configuration')).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    rows.push({ names: [...cells[0]!.matchAll(/`(SVC_[A-Z0-9_]+)`/g)].map((m) => m[1]!), defaultCell: cells[2]! });
  }
  return rows;
}

describe('the README configuration table', () => {
  it('lists every setting the service reads, and nothing else', () => {
    const listed = configurationTable()
      .flatMap((r) => r.names)
      .sort();
    assert.deepEqual(listed, Object.keys(ENV_VARS).sort());
  });

  it('states the defaults the code has', () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    for (const row of configurationTable()) {
      const value = /^`([^`]*)`$/.exec(row.defaultCell)?.[1];
      if (value === undefined || row.names.length !== 1) continue;
      const key = ENV_VARS[row.names[0] as keyof typeof ENV_VARS];
      assert.equal(String(defaults[key]), value, `${row.names[0]} default`);
    }
  });
});
