/*
 * `npm run lint:openapi`: writes each OpenAPI document svc serves (the partners' and the
 * operators', as served from https://svc.example) to a temporary file and lints it with Redocly (recommended rules, redocly.yaml) and Spectral (spectral:oas, .spectral.yaml).
 * Any error or warning fails. Both run offline: their rulesets ship in node_modules.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedDocument } from '../src/http/routes/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };
const bin = (name: string) => join('node_modules', '.bin', name);

function run(cmd: string, args: string[], capture = false) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit' });
  if (r.error) throw r.error;
  return r;
}

let failed = false;
try {
  for (const audience of ['partner', 'operator'] as const) {
    const file = join(dir, `${audience}-openapi.json`);
    writeFileSync(file, JSON.stringify(servedDocument(audience, 'https://svc.example'), null, 2));
    console.log(`${audience} document:`);
    const redocly = run(bin('redocly'), ['lint', '--config', 'redocly.yaml', '--format=json', file], true);
    const totals = (JSON.parse(redocly.stdout) as { totals: { errors: number; warnings: number } }).totals;
    if (redocly.status !== 0 || totals.errors + totals.warnings > 0) {
      failed = true;
      run(bin('redocly'), ['lint', '--config', 'redocly.yaml', file]);
    } else console.log('redocly lint (recommended): no errors, no warnings');
    const spectral = run(bin('spectral'), ['lint', '--ruleset', '.spectral.yaml', '--fail-severity=hint', file]);
    if (spectral.status !== 0) failed = true;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
