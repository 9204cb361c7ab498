// `npm test` and `npm run demo` start here, so either works as the first command on a fresh clone:
// when node_modules is missing, or was installed from an older package-lock.json, install the
// locked dependencies (npm ci) first. Plain JavaScript: it runs before tsx is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const INSTALLED = 'node_modules/.package-lock.json';

/** Why node_modules does not hold what package-lock.json locks, or null when it does. */
function staleness() {
  if (!existsSync(INSTALLED)) return 'node_modules is missing';
  const locked = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(INSTALLED, 'utf8')).packages ?? {};
  for (const [path, want] of Object.entries(locked)) {
    if (path === '' || want.link) continue;
    const have = installed[path];
    // Optional packages for other platforms are never installed.
    if (!have && want.optional) continue;
    if (!have) return `${path} is not installed`;
    if (have.version !== want.version) return `${path} is ${have.version}, package-lock.json wants ${want.version}`;
  }
  return null;
}

const reason = staleness();
if (reason) {
  process.stderr.write(`installing dependencies with npm ci: ${reason}\n`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: ['ignore', 'inherit', 'inherit'] });
}
