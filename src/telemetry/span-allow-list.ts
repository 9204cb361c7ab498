import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * The one gate of what leaves svc in a span (docs/operations.md, "Traces"): an attribute is
 * exported only when its key is listed here, whichever instrumentation set it. The HTTP
 * instrumentations record the full URL, the path (crew ids, file-link tokens), the query, the
 * client's address and user agent: none is listed, so none leaves; the route template
 * (`http.route`, `/v1/crew/:crew_unique_id`) says which call it was. SQL text leaves (Kysely sends
 * values as parameters, which are never recorded); webhook URLs do not (a partner may put a token
 * in one), only their host and port. Exception events keep their type, not their message or stack,
 * and a span's status keeps its code, not its message: either may quote stored values.
 */
const EXPORTED = new Set([
  // HTTP, both generations of the semantic conventions the instrumentations may write.
  'http.method',
  'http.request.method',
  'http.route',
  'http.status_code',
  'http.response.status_code',
  'http.scheme',
  'url.scheme',
  'http.flavor',
  'network.protocol.version',
  'server.address',
  'server.port',
  'net.host.port',
  // Koa: the layer's kind and the route template it served.
  'koa.type',
  'koa.name',
  // Store queries: Postgres (instrumentation-pg) and SQLite (src/telemetry/sqlite-query-spans.ts).
  'db.system',
  'db.system.name',
  'db.name',
  'db.namespace',
  'db.statement',
  'db.query.text',
  'db.operation',
  'db.operation.name',
  'net.peer.name',
  'net.peer.port',
  'error.type',
  'exception.type',
]);

/** svc's own facts (request id, partner id, outcome…): written by this repository's code only, from SpanFacts. */
const OWN_PREFIX = 'svc.';

export function allowedAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (EXPORTED.has(key) || key.startsWith(OWN_PREFIX)) kept[key] = value;
  return kept;
}

/** The span as it may leave: allowed attributes, events with theirs, the status without its message. */
export function exportableSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes: allowedAttributes(span.attributes),
    links: span.links.map((link) => ({ context: link.context, attributes: allowedAttributes(link.attributes ?? {}) })),
    events: span.events.map((event) => ({ ...event, attributes: allowedAttributes(event.attributes ?? {}) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Wraps the OTLP exporter: every span passes exportableSpan on its way out. */
export function allowListExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map(exportableSpan), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}
