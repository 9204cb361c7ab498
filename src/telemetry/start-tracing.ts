import { createRequire } from 'node:module';
import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import type { LogConfig } from 'kysely';
import type { TracingSettings } from '../config/tracing-settings.ts';
import type { Spans } from '../services/plumbing/spans.ts';
import { otelSpans } from './otel-spans.ts';
import { allowListExporter } from './span-allow-list.ts';
import { sqliteQuerySpans } from './sqlite-query-spans.ts';

/** Tracing as a command uses it (CliDeps.tracing), and how main.ts ends it. */
export interface TracingRuntime {
  spans: Spans;
  /** Kysely's query log that makes SQLite's query spans (Postgres has instrumentation-pg's). */
  sqliteQueryLog: LogConfig;
  /**
   * Exports what is still buffered (within the exporter's timeout, OTEL_EXPORTER_OTLP_TIMEOUT) and
   * stops. Never rejects: spans that cannot be exported are said on standard error, and the
   * command's outcome stays its own.
   */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK: spans are batched and posted as OTLP/HTTP JSON to the configured
 * endpoint, each through the allow list (span-allow-list.ts). Loaded by main.ts only when tracing
 * is on, so no other start pays for the SDK. Trace context is neither taken from partners' requests
 * nor sent with webhooks: every partner request starts a trace of svc's own, and a webhook carries
 * exactly its documented headers (docs/operations.md, "Traces").
 */
export async function startTracing(settings: Extract<TracingSettings, { enabled: true }>): Promise<TracingRuntime> {
  const [
    sdk,
    { OTLPTraceExporter },
    { registerInstrumentations },
    { HttpInstrumentation },
    koa,
    { PgInstrumentation },
    { UndiciInstrumentation },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-koa'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/resources'),
  ]);
  // A collector that cannot be reached or refuses the spans is said on standard error, once per failed export.
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.ERROR);
  const exporter = allowListExporter(new OTLPTraceExporter({ url: settings.url, headers: settings.headers }));
  const provider = new sdk.NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  provider.register({ propagator: null });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // svc's only outgoing HTTP is webhooks, through undici; the exporter's own posts are not traced.
        disableOutgoingRequestInstrumentation: true,
        // Prometheus' scrapes of the metrics listener are not partner requests.
        ignoreIncomingRequestHook: (req) => req.url === '/metrics',
      }),
      // One span per request and one for its route, not one per middleware.
      new koa.KoaInstrumentation({ ignoreLayersType: [koa.KoaLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  // svc imports these as ES modules, which wrap the CommonJS ones; requiring them once here lets the
  // instrumentations patch the prototypes both share, with no loader hook over every import.
  const require = createRequire(import.meta.url);
  for (const id of ['node:http', 'node:https', 'koa', 'pg']) require(id);
  const tracer = provider.getTracer('svc');
  return {
    spans: otelSpans(tracer),
    sqliteQueryLog: sqliteQuerySpans(tracer),
    shutdown: () =>
      provider.shutdown().catch((err: unknown) => {
        diag.error(`svc: the last spans could not be exported: ${err instanceof Error ? err.message : String(err)}`);
      }),
  };
}
