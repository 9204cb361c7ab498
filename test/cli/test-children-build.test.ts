import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile } from '../support/run-file.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// How the test children are chosen is under test: the suite's SVC_TEST_CHILDREN is not passed on.
const run = (file: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  runFile(file, args, cwd, env, ['SVC_TEST_CHILDREN']);

// What test/support/svc-build.ts says to run, from a fresh process (each test file is one).
const PROBE = `import { svcCommand } from './test/support/svc-build.ts';
process.stdout.write(JSON.stringify(svcCommand()));`;

describe('svc children of the tests run a build of the current sources, never another', () => {
  // A copy of what the build is made from, beside the real node_modules: builds made here touch nothing of the checkout.
  let clone: string;
  before(() => {
    clone = mkdtempSync(join(tmpdir(), 'svc-test-build-'));
    for (const path of [
      'src',
      'data',
      'bin',
      'scripts/build.mjs',
      'tsconfig.json',
      'package.json',
      'package-lock.json',
      'test/support/svc-build.ts',
      'test/support/source-digest.ts',
    ])
      cpSync(join(root, path), join(clone, path), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(clone, 'node_modules'));
    writeFileSync(join(clone, 'probe.ts'), PROBE);
  });
  after(() => rmSync(clone, { recursive: true, force: true }));

  /** The command the support picks now, and what `svc --version` prints through it. */
  async function version(): Promise<{ command: { command: string; args: string[]; env: Record<string, string> }; printed: string }> {
    const probe = await run(process.execPath, ['--import', 'tsx', 'probe.ts'], clone);
    assert.equal(probe.code, 0, probe.stderr);
    const command = JSON.parse(probe.stdout);
    const res = await run(command.command, [...command.args, '--version'], clone, command.env);
    assert.equal(res.code, 0, res.stderr);
    return { command, printed: res.stdout };
  }

  const setVersion = (from: string, to: string) => {
    const file = join(clone, 'src/cli/program.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace(`.version('${from}')`, `.version('${to}')`));
  };

  it('builds on first use; an edited source gets a build of its own; the sources as they were find their build again', async () => {
    const first = await version();
    assert.equal(first.command.command, process.execPath, 'node on a build, not tsx');
    assert.match(first.command.args[0]!, /\/\.build\/test-[0-9a-f]{20}\/js\/main\.js$/);
    assert.equal(first.printed, '0.1.0\n');

    setVersion('0.1.0', '0.1.0-edited');
    const edited = await version();
    assert.notEqual(edited.command.args[0], first.command.args[0]);
    assert.equal(edited.printed, '0.1.0-edited\n');

    setVersion('0.1.0-edited', '0.1.0');
    const back = await version();
    assert.equal(back.command.args[0], first.command.args[0]);
    assert.equal(back.printed, '0.1.0\n');
  });

  it('sources that do not build leave the children to bin/svc through tsx', async () => {
    const file = join(clone, 'src/cli/program.ts');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}\nexport const = ;\n`);
    try {
      const probe = await run(process.execPath, ['--import', 'tsx', 'probe.ts'], clone);
      assert.equal(probe.code, 0, probe.stderr);
      assert.deepEqual(JSON.parse(probe.stdout), { command: join(clone, 'bin/svc'), args: [], env: { SVC_FROM_SOURCE: '1' } });
    } finally {
      writeFileSync(file, text);
    }
  });
});
