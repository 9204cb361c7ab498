/**
 * Tracing is configured by OpenTelemetry's own variables, not SVC_* ones, so an operator's usual
 * set-up (a Collector's endpoint in OTEL_EXPORTER_OTLP_ENDPOINT) works as it does for any service.
 * svc reads the ones below but the sampler's, which the SDK reads itself (docs/operations.md, "Traces").
 */
export const TRACING_VARS = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
] as const;

export type TracingVar = (typeof TRACING_VARS)[number];

/** Headers carry the backend's credentials: their values are never printed. */
export const SECRET_TRACING_VARS: ReadonlySet<TracingVar> = new Set(['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']);

/** Whether svc exports traces, and where to. */
export type TracingSettings =
  | { enabled: false; why: string }
  | {
      enabled: true;
      /** Where spans are posted (OTLP/HTTP, JSON): the traces endpoint as given, else the base endpoint + /v1/traces. */
      url: string;
      headers: Record<string, string>;
      serviceName: string;
    };

const truthy = (v: string | undefined) => /^\s*true\s*$/i.test(v ?? '');
const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** `k1=v1,k2=v2`, values URL-encoded, as the OpenTelemetry specification writes OTEL_EXPORTER_OTLP_HEADERS. */
function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/** Off unless an OTLP endpoint is set, and OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none turn it off again. */
export function tracingSettings(env: Record<string, string | undefined>): TracingSettings {
  if (truthy(env.OTEL_SDK_DISABLED)) return { enabled: false, why: 'OTEL_SDK_DISABLED is true' };
  if (/^\s*none\s*$/i.test(env.OTEL_TRACES_EXPORTER ?? '')) return { enabled: false, why: 'OTEL_TRACES_EXPORTER is none' };
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!set(traces) && !set(base)) return { enabled: false, why: 'no OTLP endpoint is set' };
  return {
    enabled: true,
    url: set(traces) ? traces.trim() : `${base!.trim().replace(/\/+$/, '')}/v1/traces`,
    headers: { ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    serviceName: set(env.OTEL_SERVICE_NAME) ? env.OTEL_SERVICE_NAME.trim() : 'svc',
  };
}
