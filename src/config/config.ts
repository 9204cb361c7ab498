import { create, defaulted, object, optional, string, StructError } from 'superstruct';
import { isLoopbackHost } from '../domain/address-policy.ts';
import { AppError } from '../domain/app-error.ts';
import { parseInstant } from '../domain/calendar.ts';
import { oneOf, onOff, satisfying, settingProblem, wholeNumber } from './setting-types.ts';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../domain/vocabulary.ts';

/** Every setting of the service, validated once and frozen. Defaults live here and nowhere else. */
export interface Config {
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  readonly trustProxy: boolean;
  readonly logLevel: LogLevel;
  /** `auto`: pino-pretty lines when standard output is a terminal, JSON lines otherwise. */
  readonly logFormat: LogFormat;
  /** Allow webhook URLs on loopback/private addresses and plain http to loopback (local testing). */
  readonly allowInsecureWebhooks: boolean;
  /** Days before expiry at which a compliance requirement turns `expiring`. */
  readonly complianceWindowDays: number;
  /** Deadline of one live compliance evaluation, in milliseconds. */
  readonly complianceDeadlineMs: number;
  /** Operator switch to exercise the fallback: make the evaluator fail or stall. */
  readonly complianceFault: 'none' | 'fail' | 'stall';
  /** Default requests per window per partner when the partner row sets none. */
  readonly rateLimitDefault: number;
  readonly rateLimitWindowSeconds: number;
  /** Base URL used to build absolute links (download_url); empty means derive from the request. */
  readonly publicBaseUrl: string;
  /** Time limit of one webhook delivery attempt, in milliseconds. */
  readonly webhookTimeoutMs: number;
  /** Webhook deliveries in flight at once, over all endpoints. */
  readonly webhookConcurrency: number;
  /** Webhook deliveries in flight at once to one endpoint. */
  readonly webhookConcurrencyPerEndpoint: number;
  /** Lifetime of a document download link (docs/decisions.md §5: 15 minutes). */
  readonly downloadLinkTtlSeconds: number;
  /** On SIGTERM/SIGINT: how long `svc serve` waits for requests in flight, and `svc sync` for deliveries in flight. */
  readonly shutdownGraceMs: number;
  /** How long one sync run may spend delivering before it stops claiming and exits with its summary. */
  readonly syncDeliveryBudgetMs: number;
  /** Days an endpoint may fail every delivery attempt before `svc sync` disables it (docs/webhooks.md, "Endpoint health"). */
  readonly webhookDisableAfterDays: number;
  /** `svc serve`: how long the store may take to answer (Postgres: to connect, each statement; SQLite: the write lock) before the call fails. */
  readonly storeTimeoutMs: number;
  /** `SVC_NOW`: the instant sync, serve and compliance check start their clock at (ISO 8601); unset: the real clock. */
  readonly now: string | undefined;
  /** `SVC_NOW_ALLOW_WRITES`: let `svc sync` write and deliver while `now` is set (tests, demos, replaying a day). */
  readonly nowAllowWrites: boolean;
  /** Days the events feed lists an event; `svc sync` deletes delivered and dead events older than this. */
  readonly eventRetentionDays: number;
  /** Days the audit log keeps a row; `svc sync` deletes older rows once a day. 0: kept forever. */
  readonly auditRetentionDays: number;
  /** `svc serve`: the port of the Prometheus listener (GET /metrics); unset: no metrics listener. */
  readonly metricsPort: number | undefined;
  /** `svc serve`: the address the metrics listener binds. */
  readonly metricsHost: string;
}

const ConfigStruct = object({
  databaseUrl: defaulted(string(), 'sqlite:data/svc.db'),
  host: defaulted(string(), '127.0.0.1'),
  port: defaulted(wholeNumber(0, 65535), 8080),
  tlsCert: optional(string()),
  tlsKey: optional(string()),
  trustProxy: defaulted(onOff(), false),
  logLevel: defaulted(oneOf(LOG_LEVELS), 'info'),
  logFormat: defaulted(oneOf(LOG_FORMATS), 'auto'),
  allowInsecureWebhooks: defaulted(onOff(), false),
  complianceWindowDays: defaulted(wholeNumber(0, 3650), 90),
  complianceDeadlineMs: defaulted(wholeNumber(1, 60_000), 2000),
  complianceFault: defaulted(oneOf(['none', 'fail', 'stall'] as const), 'none'),
  rateLimitDefault: defaulted(wholeNumber(1), 600),
  rateLimitWindowSeconds: defaulted(wholeNumber(1), 60),
  publicBaseUrl: defaulted(string(), ''),
  webhookTimeoutMs: defaulted(wholeNumber(1, 120_000), 10_000),
  webhookConcurrency: defaulted(wholeNumber(1, 256), 8),
  webhookConcurrencyPerEndpoint: defaulted(wholeNumber(1, 64), 2),
  downloadLinkTtlSeconds: defaulted(wholeNumber(1, 86_400), 900),
  shutdownGraceMs: defaulted(wholeNumber(0, 600_000), 10_000),
  // Ten minutes: a run started by the 15-minute cron ends, attempts in flight included, before the next.
  syncDeliveryBudgetMs: defaulted(wholeNumber(1000, 3_600_000), 600_000),
  // Five days, as Svix and Stripe give a failing endpoint before they disable it.
  webhookDisableAfterDays: defaulted(wholeNumber(1, 365), 5),
  storeTimeoutMs: defaulted(wholeNumber(100, 600_000), 5000),
  now: optional(satisfying((v) => parseInstant(v) !== null, 'an ISO 8601 date-time such as 2026-11-22T10:00:00Z')),
  nowAllowWrites: defaulted(onOff(), false),
  eventRetentionDays: defaulted(wholeNumber(1, 3650), 30),
  auditRetentionDays: defaulted(wholeNumber(0, 36_500), 365),
  metricsPort: optional(wholeNumber(0, 65535)),
  metricsHost: defaulted(string(), '127.0.0.1'),
});

/** Environment variables read by the service, and the setting each one feeds. */
export const ENV_VARS = {
  SVC_DATABASE_URL: 'databaseUrl',
  SVC_HOST: 'host',
  SVC_PORT: 'port',
  SVC_TLS_CERT: 'tlsCert',
  SVC_TLS_KEY: 'tlsKey',
  SVC_TRUST_PROXY: 'trustProxy',
  SVC_LOG_LEVEL: 'logLevel',
  SVC_LOG_FORMAT: 'logFormat',
  SVC_ALLOW_INSECURE_WEBHOOKS: 'allowInsecureWebhooks',
  SVC_COMPLIANCE_WINDOW_DAYS: 'complianceWindowDays',
  SVC_COMPLIANCE_DEADLINE_MS: 'complianceDeadlineMs',
  SVC_COMPLIANCE_FAULT: 'complianceFault',
  SVC_RATE_LIMIT: 'rateLimitDefault',
  SVC_RATE_LIMIT_WINDOW_SECONDS: 'rateLimitWindowSeconds',
  SVC_PUBLIC_BASE_URL: 'publicBaseUrl',
  SVC_WEBHOOK_TIMEOUT_MS: 'webhookTimeoutMs',
  SVC_WEBHOOK_CONCURRENCY: 'webhookConcurrency',
  SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: 'webhookConcurrencyPerEndpoint',
  SVC_DOWNLOAD_LINK_TTL_SECONDS: 'downloadLinkTtlSeconds',
  SVC_SHUTDOWN_GRACE_MS: 'shutdownGraceMs',
  SVC_SYNC_DELIVERY_BUDGET_MS: 'syncDeliveryBudgetMs',
  SVC_WEBHOOK_DISABLE_AFTER_DAYS: 'webhookDisableAfterDays',
  SVC_STORE_TIMEOUT_MS: 'storeTimeoutMs',
  SVC_NOW: 'now',
  SVC_NOW_ALLOW_WRITES: 'nowAllowWrites',
  SVC_EVENT_RETENTION_DAYS: 'eventRetentionDays',
  SVC_AUDIT_RETENTION_DAYS: 'auditRetentionDays',
  SVC_METRICS_PORT: 'metricsPort',
  SVC_METRICS_HOST: 'metricsHost',
} as const satisfies Record<string, keyof Config>;

const NUMERIC = new Set<keyof Config>([
  'port',
  'complianceWindowDays',
  'complianceDeadlineMs',
  'rateLimitDefault',
  'rateLimitWindowSeconds',
  'webhookTimeoutMs',
  'webhookConcurrency',
  'webhookConcurrencyPerEndpoint',
  'downloadLinkTtlSeconds',
  'shutdownGraceMs',
  'storeTimeoutMs',
  'eventRetentionDays',
  'auditRetentionDays',
  'syncDeliveryBudgetMs',
  'webhookDisableAfterDays',
  'metricsPort',
]);
const BOOLEAN = new Set<keyof Config>(['trustProxy', 'allowInsecureWebhooks', 'nowAllowWrites']);

function coerce(key: keyof Config, raw: string): unknown {
  if (NUMERIC.has(key)) return /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (BOOLEAN.has(key)) {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off|)$/i.test(raw)) return false;
    return raw;
  }
  return raw;
}

/**
 * Builds the Config from environment variables, then command-line overrides (which win).
 * Throws AppError('invalid_setting') naming the setting and its variable when a value is bad.
 */
export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_VARS)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = coerce(key, value);
  }
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) raw[key] = value;
  try {
    return Object.freeze(create(raw, ConfigStruct)) as Config;
  } catch (err) {
    if (err instanceof StructError) {
      const key = err.path[0] as keyof Config;
      const envName = Object.entries(ENV_VARS).find(([, k]) => k === key)?.[0];
      const name = overrides[key] !== undefined || !envName ? `setting ${String(key)}` : envName;
      throw new AppError('invalid_setting', settingProblem(name, err));
    }
    throw err;
  }
}

/**
 * The settings `svc serve` needs beyond loadConfig's (other commands never build links or listen):
 * a TLS certificate with its key, and the origin links are built from. Throws
 * AppError('invalid_setting') naming the setting.
 */
export function assertServeSettings(config: Config): void {
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey)) {
    throw new AppError('invalid_setting', '--tls-cert and --tls-key go together (SVC_TLS_CERT, SVC_TLS_KEY)');
  }
  // Links (download_url, download_path, profile_photo_url) are built from SVC_PUBLIC_BASE_URL,
  // else from the request's Host header, which a client chooses: trusted only in development.
  if (config.publicBaseUrl && !/^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?$/i.test(config.publicBaseUrl)) {
    throw new AppError(
      'invalid_setting',
      `SVC_PUBLIC_BASE_URL must be an http(s) origin such as https://api.example.com, not ${config.publicBaseUrl.slice(0, 200)}`,
    );
  }
  if (!config.publicBaseUrl && !isLoopbackHost(config.host)) {
    throw new AppError(
      'invalid_setting',
      `svc serve on ${config.host}, not a loopback address, needs SVC_PUBLIC_BASE_URL: ` +
        'set it to the origin partners call (e.g. https://api.example.com); absolute links are never built from the Host header there',
    );
  }
}
