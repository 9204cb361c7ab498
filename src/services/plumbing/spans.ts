/**
 * What the HTTP app and the sync run tell a trace, kept free of any tracing library (as HttpMetrics
 * is of prom-client): src/telemetry/ implements it over OpenTelemetry when tracing is on, and
 * NO_SPANS, when it is off, does nothing and costs a function call. What a span may carry is
 * decided at export (src/telemetry/span-allow-list.ts), whatever is handed in here.
 */
export type SpanFacts = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface SpanNotes {
  /** Adds facts learned while the span runs (an outcome, a status code). */
  set(facts: SpanFacts): void;
}

export interface Spans {
  /** Runs `step` in a span named `name`, a child of the current one; the span ends when `step` settles. */
  span<T>(name: string, facts: SpanFacts, step: (notes: SpanNotes) => Promise<T>): Promise<T>;
  /** Adds facts to the current span (the partner request's, from the HTTP middleware). */
  annotate(facts: SpanFacts): void;
  /** The id of the trace being recorded (32 hex), or null: tracing off, or this trace not sampled. */
  traceId(): string | null;
}

const NO_NOTES: SpanNotes = { set() {} };

export const NO_SPANS: Spans = {
  span: (_name, _facts, step) => step(NO_NOTES),
  annotate() {},
  traceId: () => null,
};
