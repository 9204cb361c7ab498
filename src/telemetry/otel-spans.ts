import { isSpanContextValid, SpanStatusCode, trace, TraceFlags, type Attributes, type Tracer } from '@opentelemetry/api';
import type { SpanFacts, Spans } from '../services/plumbing/spans.ts';

/** Facts as span attributes: absent ones (null, undefined) are left out rather than sent empty. */
export function attributesOf(facts: SpanFacts): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(facts)) if (value !== null && value !== undefined) attributes[key] = value;
  return attributes;
}

/** Spans (src/services/plumbing/spans.ts) over an OpenTelemetry tracer, the active span found through the context. */
export function otelSpans(tracer: Tracer): Spans {
  return {
    span: (name, facts, step) =>
      tracer.startActiveSpan(name, { attributes: attributesOf(facts) }, async (span) => {
        try {
          return await step({ set: (more) => span.setAttributes(attributesOf(more)) });
        } catch (err) {
          // The type only: a message may quote stored values (docs/operations.md, "Traces").
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('error.type', err instanceof Error ? err.name : typeof err);
          throw err;
        } finally {
          span.end();
        }
      }),
    annotate(facts) {
      trace.getActiveSpan()?.setAttributes(attributesOf(facts));
    },
    traceId() {
      const context = trace.getActiveSpan()?.spanContext();
      if (!context || !isSpanContextValid(context) || (context.traceFlags & TraceFlags.SAMPLED) === 0) return null;
      return context.traceId;
    },
  };
}
