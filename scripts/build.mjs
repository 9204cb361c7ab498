// Compiles src/ into .build/ with esbuild: what bin/svc runs (docs/architecture.md, "The command
// line"). Run by `npm ci`/`npm install` (the prepare script) and by bin/svc itself whenever a
// source file is newer than the build. Plain JavaScript, so it runs without tsx.
//
// Each build goes to a folder of its own, .build/<id>/js/, and .build/current is then pointed at
// it in one rename: a command starting meanwhile runs the old build or the new one, never half of
// either. The folder is three levels below the repository, as src/services/fixtures/ is, so the
// paths the code resolves from its own location (data/requirements.json) hold in both.
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync, symlinkSync, utimesSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builds = join(root, '.build');

/**
 * How this repository's code is compiled for node, here and for the tests (scripts/run-tests.mjs):
 * ES modules for the oldest Node the package supports, dependencies loaded from node_modules as
 * they are, with source maps beside.
 */
export const NODE_OUTPUT = {
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
};

/** Builds src/main.ts into .build/<id>/js/ and returns that folder. */
export async function buildInto(id) {
  // Stamped with the time the sources were read, not written: an edit made during the build is newer.
  const started = new Date();
  const outdir = join(builds, id, 'js');
  await build({
    entryPoints: [join(root, 'src/main.ts')],
    outdir,
    bundle: true,
    // Dynamic imports stay separate chunks, loaded only by the commands that use them.
    splitting: true,
    // Dependencies load from node_modules as they are: the build holds only this repository's code.
    ...NODE_OUTPUT,
    logLevel: 'warning',
  });
  utimesSync(join(outdir, 'main.js'), started, started);
  return outdir;
}

/** Builds, points .build/current at the new build, and removes builds older than the one it replaced. */
async function main() {
  const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  await buildInto(id);
  let previous;
  try {
    previous = readlinkSync(join(builds, 'current'));
  } catch {
    previous = undefined;
  }
  const link = join(builds, `current.${id}`);
  symlinkSync(id, link);
  renameSync(link, join(builds, 'current'));
  // The replaced build stays (a command started from it a moment ago may still load its chunks),
  // and so does any begun in the last 10 minutes (another launcher may be building it now).
  for (const name of readdirSync(builds)) {
    const begun = parseInt(name.split('-')[0], 36);
    if (name !== id && name !== previous && /^[0-9a-z]+-[0-9a-f]{6}$/.test(name) && begun < Date.now() - 600_000) {
      rmSync(join(builds, name), { recursive: true, force: true });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
