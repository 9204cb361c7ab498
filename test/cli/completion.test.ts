import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/program.ts';
import { commandTree } from '../../src/cli/completion/command-tree.ts';
import { cli, cliChild } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-completion-'));

/** What bash offers for the words typed, the last one being completed: the script sourced in a real bash. */
function bashOffers(script: string, typed: string[]): string[] {
  const words = typed.map((w) => `'${w}'`).join(' ');
  const probe = `source '${script}'\nCOMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; COMPREPLY=()\n_svc_complete\nprintf '%s\\n' "\${COMPREPLY[@]}"\n`;
  return execFileSync('bash', ['--norc', '-c', probe], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l !== '');
}

describe('svc completion bash, sourced in bash, completes from the command tree', () => {
  const script = join(dir, 'svc.bash');
  before(async () => {
    const res = await cliChild(['completion', 'bash']);
    assert.equal(res.code, 0, res.stderr);
    writeFileSync(script, res.stdout);
  });

  it('registers itself for svc', () => {
    const spec = execFileSync('bash', ['--norc', '-c', `source '${script}'; complete -p svc`], { encoding: 'utf8' });
    assert.equal(spec.trim(), 'complete -o default -F _svc_complete svc');
  });

  it('sub-commands at each level, after global options too', () => {
    assert.deepEqual(bashOffers(script, ['svc', 'ad']), ['admin']);
    assert.deepEqual(bashOffers(script, ['svc', 'admin', 'register-']), ['register-webhook']);
    assert.deepEqual(bashOffers(script, ['svc', '--db', 'sqlite:admin.db', 'admin', 'list-k']), ['list-keys']);
    assert.deepEqual(bashOffers(script, ['svc', 'compliance', '']), ['check', 'forecast']);
  });

  it("a command's options, after option values too, and no other command's", () => {
    assert.deepEqual(bashOffers(script, ['svc', 'sync', '--']), [
      '--dry-run',
      '--full',
      '--json',
      '--deliver-only',
      '--diff-processes',
      '--diff-worker',
      '--help',
    ]);
    assert.deepEqual(bashOffers(script, ['svc', 'admin', 'register-webhook', '--partner', 'sync', '--ur']), ['--url']);
  });

  it('the values an option or argument accepts', () => {
    assert.deepEqual(bashOffers(script, ['svc', 'admin', 'register-webhook', '--status', '']), ['active', 'disabled']);
    assert.deepEqual(bashOffers(script, ['svc', 'completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(bashOffers(script, ['svc', 'admin', 'issue-key', '--partner', '']), [], 'a free value: nothing offered');
  });
});

describe('every command and option of the tree is in each script', () => {
  const tree = commandTree(buildProgram({ env: {}, stdout: process.stdout, stderr: process.stderr, clock: () => new Date() }));

  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it(shell, async () => {
      const res = await cli(['completion', shell]);
      assert.equal(res.code, 0, res.stderr);
      assert.ok(tree.length > 20, 'the tree was walked');
      for (const c of tree) {
        for (const s of c.subcommands) assert.match(res.stdout, new RegExp(`\\b${s.name}\\b`), `${shell}: ${c.path.join(' ')} ${s.name}`);
        for (const o of c.options) {
          const long = o.names[0]!;
          assert.ok(res.stdout.includes(shell === 'fish' ? `-l ${long.slice(2)}` : long), `${shell}: ${c.path.join(' ')} ${long}`);
          for (const v of o.choices) assert.ok(res.stdout.includes(v), `${shell}: ${long} ${v}`);
        }
      }
    });
  }

  it('an unknown shell is bad usage naming the shells', async () => {
    const res = await cli(['completion', 'tcsh']);
    assert.equal(res.code, 64);
    assert.match(res.stderr, /Allowed choices are bash, zsh, fish/);
    assert.equal(res.stdout, '');
  });
});
