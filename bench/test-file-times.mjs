// Where the test suite's time goes, per test file (docs/development.md, "How the suite runs"). Loaded into
// every Node process of a run through NODE_OPTIONS; in each test file's process it appends, at
// exit, one tab-separated line to $SVC_TEST_TIMES: wall seconds, the process's own CPU seconds,
// the CPU seconds of the child processes it waited for (svc children, esbuild, npm), the file.
// The Postgres server's CPU is not in it. Linux only (it reads /proc/self/stat). Run:
//   SVC_TEST_TIMES=/tmp/times.tsv NODE_OPTIONS="--import $PWD/bench/test-file-times.mjs" CI=true npm test
//   sort -rn /tmp/times.tsv | head -15
import { appendFileSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

// npm test runs each file compiled (.build/suite-*/test/…/x.test.mjs), or through tsx (test/…/x.test.ts).
const file = process.argv.find((arg) => /\.test\.m?[jt]s$/.test(arg));
const out = process.env.SVC_TEST_TIMES;
if (file && out) {
  process.on('exit', () => {
    // Fields after the command name: utime, stime, cutime, cstime at 11-14, in clock ticks (100 a second).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const [user, system, childUser, childSystem] = [11, 12, 13, 14].map((i) => Number(fields[i]) / 100);
    const line = [performance.now() / 1000, user + system, childUser + childSystem].map((s) => s.toFixed(1));
    appendFileSync(out, `${line.join('\t')}\t${file.replace(/^.*?\/(test\/)/, '$1').replace(/\.mjs$/, '.ts')}\n`);
  });
}
