import { Command } from 'commander';
import { ENV_VARS, type Config } from '../../config/config.ts';
import { SECRET_TRACING_VARS, TRACING_VARS, tracingSettings } from '../../config/tracing-settings.ts';
import { isAppError } from '../../domain/app-error.ts';
import { maskUrl, maskUrlsIn } from '../../domain/masked-url.ts';
import { openStore } from '../../store/connect.ts';
import { migrationStatus } from '../../store/migrator.ts';
import { commandConfig, println, type CliDeps } from '../context.ts';

/** What `svc config check` exits with when it warns: EX_CONFIG, as `svc serve` on a store not migrated. */
export const CONFIG_WARNING_EXIT = 78;

const DEFAULT_STORE = 'sqlite:data/svc.db';
/** Settings whose value is never printed: anything named like a key, secret, password or token (SVC_TLS_KEY is a file path). */
const SECRET_NAME = /secret|password|token|(?<!TLS_)KEY$/i;

export interface SettingLine {
  variable: string;
  setting: keyof Config;
  value: string | number | boolean | null;
  source: 'flag' | 'environment' | 'default';
}

export interface ConfigWarning {
  code: string;
  message: string;
}

/** Each setting, its shown value and where it came from; `--db` is the one flag every command takes. */
export function settingLines(env: CliDeps['env'], config: Config, dbFlag: string | undefined): SettingLine[] {
  return Object.entries(ENV_VARS).map(([variable, setting]) => {
    const fromEnv = env[variable] !== undefined && env[variable] !== '';
    const source = setting === 'databaseUrl' && dbFlag ? 'flag' : fromEnv ? 'environment' : 'default';
    const raw = config[setting];
    let value: SettingLine['value'] = raw === undefined || raw === '' ? null : raw;
    if (setting === 'databaseUrl') value = maskUrl(String(raw));
    else if (SECRET_NAME.test(variable) && value !== null) value = '***';
    return { variable, setting, value, source };
  });
}

export interface TracingReport {
  /** `on, spans to <url>` or `off (<why>)`. */
  state: string;
  settings: { variable: string; value: string | null; source: 'environment' | 'default' }[];
}

/** The OpenTelemetry variables svc reads, header values masked, and whether they turn tracing on (docs/operations.md, "Traces"). */
export function tracingReport(env: CliDeps['env']): TracingReport {
  const tracing = tracingSettings(env);
  const settings = TRACING_VARS.map((variable) => {
    const raw = env[variable];
    if (raw === undefined || raw === '') return { variable, value: null, source: 'default' as const };
    const value = SECRET_TRACING_VARS.has(variable) ? '***' : /ENDPOINT$/.test(variable) ? maskUrl(raw) : raw;
    return { variable, value, source: 'environment' as const };
  });
  return { state: tracing.enabled ? `on, spans to ${maskUrl(tracing.url)}` : `off (${tracing.why})`, settings };
}

/** Whether systemd (or another manager setting these) started this process: ExecStartPre and ExecStart both get INVOCATION_ID. */
const underServiceManager = (env: CliDeps['env']): boolean => Boolean(env.INVOCATION_ID || env.NOTIFY_SOCKET);

/** The settings likely wrong in production, store state included (an unreachable or unmigrated store). */
export async function configWarnings(env: CliDeps['env'], config: Config, lines: SettingLine[]): Promise<ConfigWarning[]> {
  const warnings: ConfigWarning[] = [];
  const storeSource = lines.find((l) => l.setting === 'databaseUrl')!.source;
  if (underServiceManager(env) && storeSource === 'default' && config.databaseUrl === DEFAULT_STORE) {
    warnings.push({
      code: 'default_store',
      message: `running under a service manager on the default store ${DEFAULT_STORE}: set SVC_DATABASE_URL in the env file the unit reads`,
    });
  }
  if (!config.publicBaseUrl) {
    warnings.push({
      code: 'no_public_base_url',
      message: "SVC_PUBLIC_BASE_URL is not set: absolute links would be built from the request's Host header",
    });
  }
  if (config.allowInsecureWebhooks) {
    warnings.push({
      code: 'insecure_webhooks',
      message: 'SVC_ALLOW_INSECURE_WEBHOOKS is on: webhooks may go to loopback/private addresses and plain http (local testing only)',
    });
  }
  if (config.metricsPort === undefined) {
    warnings.push({ code: 'no_metrics', message: 'SVC_METRICS_PORT is not set: no Prometheus metrics, so no alerts' });
  }
  warnings.push(...(await storeWarnings(config)));
  return warnings;
}

async function storeWarnings(config: Config): Promise<ConfigWarning[]> {
  let store;
  try {
    store = await openStore(config.databaseUrl, { create: false });
  } catch (err) {
    if (!isAppError(err)) throw err;
    return [{ code: 'store_unavailable', message: maskUrlsIn(err.message, [config.databaseUrl]) }];
  }
  try {
    const pending = (await migrationStatus(store.db)).filter((m) => m.executedAt === null);
    return pending.length === 0
      ? []
      : [
          {
            code: 'store_not_migrated',
            message: `${maskUrl(config.databaseUrl)} has ${pending.length} pending migration(s): run \`svc db migrate\``,
          },
        ];
  } finally {
    await store.close();
  }
}

export function configCommand(deps: CliDeps): Command {
  const config = new Command('config').description('inspect the settings svc runs with');
  config
    .command('check')
    .description(
      'print each setting (the OTEL_* ones of tracing too), its value (secrets masked) and where it came from (flag, environment, default), ' +
        'whether tracing is on, then what is ' +
        `likely wrong for production; exits ${CONFIG_WARNING_EXIT} when it warns (systemd runs it before svc serve)`,
    )
    .option('--json', 'print one JSON object: settings, tracing, warnings')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const effective = commandConfig(deps, cmd);
      const lines = settingLines(deps.env, effective, cmd.optsWithGlobals<{ db?: string }>().db);
      const warnings = await configWarnings(deps.env, effective, lines);
      const tracing = tracingReport(deps.env);
      if (opts.json) {
        println(deps.stdout, JSON.stringify({ settings: lines, tracing, warnings }));
      } else {
        const shown = [...lines, ...tracing.settings];
        const width = Math.max(...shown.map((l) => l.variable.length));
        for (const l of shown) println(deps.stdout, `${l.variable.padEnd(width)}  ${l.value ?? '(unset)'}  [${l.source}]`);
        println(deps.stdout, `tracing: ${tracing.state}`);
        for (const w of warnings) println(deps.stdout, `warning: ${w.message}`);
        println(deps.stdout, warnings.length === 0 ? 'no warnings' : `${warnings.length} warning(s)`);
      }
      if (warnings.length > 0) process.exitCode = CONFIG_WARNING_EXIT;
    });
  return config;
}
