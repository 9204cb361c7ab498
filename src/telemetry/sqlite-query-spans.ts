import { SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';

/**
 * SQLite has no maintained OpenTelemetry instrumentation (sqlite3 is a native module), so its
 * queries get their spans from Kysely's query log: told each query's duration as it completes,
 * in the caller's async context, it records a span ending now that started that long ago, a child
 * of the span the query ran under. Queries run outside any span (the background audit writer
 * between requests) make none, as instrumentation-pg is told for Postgres (requireParentSpan).
 */
export function sqliteQuerySpans(tracer: Tracer): (event: LogEvent) => void {
  return (event) => {
    if (!trace.getActiveSpan()) return;
    const end = Date.now();
    const span = tracer.startSpan('sqlite.query', {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: { 'db.system.name': 'sqlite', 'db.query.text': event.query.sql },
    });
    if (event.level === 'error') {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', event.error instanceof Error ? event.error.name : typeof event.error);
    }
    span.end(end);
  };
}
