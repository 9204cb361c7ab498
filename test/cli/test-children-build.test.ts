import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile } from '../support/run-file.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// How the test children are chosen is under test: what the suite running this file set is not passed
// on, nor node:test's mark of a child (the probe runs as a test run of its own).
const run = (file: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  runFile(file, args, cwd, env, ['SVC_TEST_MAIN', 'SVC_FROM_SOURCE', 'SVC_TEST_FROM_SOURCE', 'NODE_TEST_CONTEXT']);

// A test file that writes what test/support/svc-build.ts says to run and what `svc --version` prints through it.
const PROBE = `import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { it } from 'node:test';
import { svcCommand } from './support/svc-build.ts';
it('probe', () => {
  const command = svcCommand();
  const printed = execFileSync(command.command, [...command.args, '--version'], { env: { ...process.env, ...command.env } }).toString();
  writeFileSync(process.env.PROBE_OUT!, JSON.stringify({ command, printed }));
});
`;

describe('svc children of the tests run the build the suite made of the current sources', () => {
  // A copy of what the suite and its build are made from, beside the real node_modules: nothing of the checkout is touched.
  let clone: string;
  before(() => {
    clone = mkdtempSync(join(tmpdir(), 'svc-test-build-'));
    for (const path of [
      'src',
      'data',
      'bin',
      'scripts/build.mjs',
      'scripts/run-tests.mjs',
      'tsconfig.json',
      'package.json',
      'test/support/svc-build.ts',
      'test/support/source-digest.ts',
    ])
      cpSync(join(root, path), join(clone, path), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(clone, 'node_modules'));
    writeFileSync(join(clone, 'test/probe.test.ts'), PROBE);
    // Sources as they are when the run starts: a version no other build carries.
    const program = join(clone, 'src/cli/program.ts');
    writeFileSync(program, readFileSync(program, 'utf8').replace(`.version('0.1.0')`, `.version('0.1.0-probe')`));
  });
  after(() => rmSync(clone, { recursive: true, force: true }));

  const probed = () =>
    JSON.parse(readFileSync(join(clone, 'probe.json'), 'utf8')) as { command: { command: string; args: string[] }; printed: string };

  it('under npm test: node on the run’s own build of src/main.ts, removed when the run ends', async () => {
    const res = await run(process.execPath, ['scripts/run-tests.mjs', 'test/probe.test.ts'], clone, {
      PROBE_OUT: join(clone, 'probe.json'),
    });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const { command, printed } = probed();
    assert.equal(command.command, process.execPath, 'node on a build, not tsx');
    assert.match(command.args[0]!, /\/\.build\/suite-[^/]+\/src\/main\.mjs$/);
    assert.equal(printed, '0.1.0-probe\n');
    assert.equal(existsSync(command.args[0]!), false, 'the run removed its build');
    assert.deepEqual(
      readdirSync(join(clone, '.build')).filter((name) => name.startsWith('suite-')),
      [],
    );
  });

  it('a test file run by hand through tsx: bin/svc, which runs the production build of the current sources', async () => {
    const res = await run(process.execPath, ['--import', 'tsx', '--test', 'test/probe.test.ts'], clone, {
      PROBE_OUT: join(clone, 'probe.json'),
    });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const { command, printed } = probed();
    assert.equal(command.command, join(clone, 'bin/svc'));
    assert.equal(printed, '0.1.0-probe\n');
  });
});
