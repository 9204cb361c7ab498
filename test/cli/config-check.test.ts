import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { cli } from '../support/cli.ts';
import { createPostgresStoreUrl, createSqliteStoreUrl, postgresRuns, type TestStore } from '../support/stores.ts';

/** A production env file's settings, as systemd hands them to ExecStartPre. */
const PRODUCTION = { INVOCATION_ID: '0123abcd', SVC_PUBLIC_BASE_URL: 'https://api.example.com', SVC_METRICS_PORT: '9464' };

interface Checked {
  code: number;
  stdout: string;
  report: { settings: { variable: string; value: unknown; source: string }[]; warnings: { code: string; message: string }[] };
}

async function check(env: Record<string, string>, ...argv: string[]): Promise<Checked> {
  const res = await cli(['config', 'check', '--json', ...argv], env);
  assert.equal(res.stderr, '');
  return { code: res.code, stdout: res.stdout, report: JSON.parse(res.stdout) as Checked['report'] };
}
const codes = (c: Checked) => c.report.warnings.map((w) => w.code);

for (const dialect of ['sqlite', 'postgres'] as const) {
  const skip = dialect === 'postgres' && !postgresRuns() ? 'Postgres does not answer (set SVC_TEST_PG_URL)' : false;
  describe(`svc config check on ${dialect}`, { skip }, () => {
    let migrated: TestStore;
    let bare: TestStore;
    before(async () => {
      migrated = dialect === 'sqlite' ? await createSqliteStoreUrl({ migrated: true }) : await createPostgresStoreUrl({ migrated: true });
      bare = dialect === 'sqlite' ? await createSqliteStoreUrl() : await createPostgresStoreUrl();
      // An empty SQLite file is a store with no schema yet, as a fresh Postgres database is.
      if (dialect === 'sqlite') writeFileSync(bare.url.slice('sqlite:'.length), '');
    });
    after(async () => {
      await migrated.dispose();
      await bare.dispose();
    });

    it('a production set-up on a migrated store: no warning, exit 0, each setting with where it came from', async () => {
      const ok = await check({ ...PRODUCTION, SVC_DATABASE_URL: migrated.url });
      assert.deepEqual(ok.report.warnings, []);
      assert.equal(ok.code, 0);
      const by = Object.fromEntries(ok.report.settings.map((s) => [s.variable, s]));
      assert.deepEqual([by.SVC_METRICS_PORT!.value, by.SVC_METRICS_PORT!.source], [9464, 'environment']);
      assert.deepEqual([by.SVC_PORT!.value, by.SVC_PORT!.source], [8080, 'default']);
      const flagged = await check({ ...PRODUCTION }, '--db', migrated.url);
      assert.equal(flagged.report.settings.find((s) => s.variable === 'SVC_DATABASE_URL')!.source, 'flag');
      assert.equal(flagged.code, 0);
      const text = await cli(['config', 'check'], { ...PRODUCTION, SVC_DATABASE_URL: migrated.url });
      assert.match(text.stdout, /^SVC_METRICS_PORT +9464 +\[environment\]$/m);
      assert.match(text.stdout, /^no warnings$/m);
    });

    it('a store not migrated warns and exits 78; `svc db migrate` makes the warning go', async () => {
      const env = { ...PRODUCTION, SVC_DATABASE_URL: bare.url };
      const before = await check(env);
      assert.deepEqual(codes(before), ['store_not_migrated']);
      assert.equal(before.code, 78);
      assert.equal((await cli(['db', 'migrate'], env)).code, 0);
      const fixed = await check(env);
      assert.deepEqual(codes(fixed), []);
      assert.equal(fixed.code, 0);
    });
  });
}

describe('svc config check: warnings for production', () => {
  let migrated: TestStore;
  before(async () => {
    migrated = await createSqliteStoreUrl({ migrated: true });
  });
  after(() => migrated.dispose());

  it('each warning fires on its own setting and goes away when that setting is fixed', async () => {
    const good = { ...PRODUCTION, SVC_DATABASE_URL: migrated.url };
    const cases: [string, Record<string, string | undefined>][] = [
      ['no_public_base_url', { SVC_PUBLIC_BASE_URL: undefined }],
      ['insecure_webhooks', { SVC_ALLOW_INSECURE_WEBHOOKS: '1' }],
      ['no_metrics', { SVC_METRICS_PORT: undefined }],
    ];
    for (const [code, change] of cases) {
      const env = Object.fromEntries(Object.entries({ ...good, ...change }).filter(([, v]) => v !== undefined)) as Record<string, string>;
      const warned = await check(env);
      assert.deepEqual(codes(warned), [code]);
      assert.equal(warned.code, 78, code);
      const text = await cli(['config', 'check'], env);
      assert.match(text.stdout, /^warning: .+$/m);
      assert.match(text.stdout, /^1 warning\(s\)$/m);
    }
    assert.equal((await check(good)).code, 0);
  });

  it('the default SQLite store under a service manager warns; outside one, or with SVC_DATABASE_URL set, it does not', async () => {
    // Whatever state data/svc.db is in here, the warning about the default store comes first.
    const underSystemd = await check({ ...PRODUCTION });
    assert.deepEqual(codes(underSystemd).slice(0, 1), ['default_store']);
    assert.match(underSystemd.report.warnings[0]!.message, /set SVC_DATABASE_URL/);
    const { INVOCATION_ID: _id, ...byHand } = PRODUCTION;
    assert.ok(!codes(await check(byHand)).includes('default_store'));
    assert.ok(!codes(await check({ ...PRODUCTION, SVC_DATABASE_URL: migrated.url })).includes('default_store'));
    assert.ok(codes(await check({ ...byHand, NOTIFY_SOCKET: '/run/systemd/notify' })).includes('default_store'));
  });

  it('a store that cannot be opened is a warning naming it, its password masked', async () => {
    const env = { ...PRODUCTION, SVC_DATABASE_URL: 'postgres://svc:hunter2-secret@127.0.0.1:1/svc?password=other-secret' };
    const res = await check(env);
    assert.deepEqual(codes(res), ['store_unavailable']);
    assert.equal(res.code, 78);
    const text = await cli(['config', 'check'], env);
    for (const out of [res.stdout, text.stdout, text.stderr]) {
      assert.doesNotMatch(out, /hunter2-secret|other-secret/);
    }
    assert.match(text.stdout, /^SVC_DATABASE_URL +postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc\?password=\*\*\* +\[environment\]$/m);
  });

  it('tracing: off until an OTLP endpoint is set, off again with OTEL_SDK_DISABLED; header values masked', async () => {
    const good = { ...PRODUCTION, SVC_DATABASE_URL: migrated.url };
    const tracing = async (env: Record<string, string>) =>
      JSON.parse((await cli(['config', 'check', '--json'], { ...good, ...env })).stdout).tracing as {
        state: string;
        settings: { variable: string; value: string | null; source: string }[];
      };
    assert.equal((await tracing({})).state, 'off (no OTLP endpoint is set)');
    const on = await tracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20tok-secret',
    });
    assert.equal(on.state, 'on, spans to http://collector:4318/v1/traces');
    assert.deepEqual(
      on.settings.filter((s) => s.source === 'environment').map((s) => [s.variable, s.value]),
      [
        ['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://collector:4318/'],
        ['OTEL_EXPORTER_OTLP_HEADERS', '***'],
      ],
    );
    const traces = await tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/t' });
    assert.equal(traces.state, 'on, spans to http://b:4318/t', 'the traces endpoint wins, as given');
    assert.equal(
      (await tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' })).state,
      'off (OTEL_SDK_DISABLED is true)',
    );
    const text = await cli(['config', 'check'], { ...good, OTEL_EXPORTER_OTLP_HEADERS: 'x-key=tok-secret' });
    assert.doesNotMatch(text.stdout, /tok-secret/);
    assert.match(text.stdout, /^OTEL_SERVICE_NAME +\(unset\) +\[default\]$/m);
    assert.match(text.stdout, /^tracing: off \(no OTLP endpoint is set\)$/m);
  });

  it('a bad setting is refused as by every command: exit 64 naming the variable', async () => {
    const res = await cli(['config', 'check'], { SVC_PORT: 'abc' });
    assert.equal(res.code, 64);
    assert.match(res.stderr, /SVC_PORT/);
  });
});
