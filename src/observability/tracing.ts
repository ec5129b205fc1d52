/**
 * OpenTelemetry spans for the gateway hop, the translation and each upstream call, exported over
 * OTLP/HTTP when `otlpEndpoint` is configured. Off by default, and then nothing is loaded or created:
 * the W3C trace context of the request is only passed on (translate/engine.ts). On, each upstream
 * call carries the traceparent of its own span.
 */
import { context, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

export interface Tracing {
  readonly enabled: boolean;
  /** Runs `fn` in a span (a child of `parent`, or of the request's traceparent); `fn` gets the span's context. */
  span<T>(
    name: string,
    parent: Context | string | undefined,
    attributes: Record<string, string | number>,
    fn: (ctx: Context | undefined) => Promise<T>,
    kind?: 'server' | 'client' | 'internal',
  ): Promise<T>;
  /** A span ended later (a proxied request: ended when its answer is sent). */
  start(
    name: string,
    parent: string | undefined,
    attributes: Record<string, string | number>,
    kind?: 'server' | 'client' | 'internal',
  ): { ctx: Context | undefined; end(status: number): void };
  /** The traceparent (and tracestate) an upstream call of this span carries. */
  headersOf(ctx: Context | undefined): Record<string, string>;
  close(): Promise<void>;
}

const OFF: Tracing = {
  enabled: false,
  span: (_name, _parent, _attributes, fn) => fn(undefined),
  start: () => ({ ctx: undefined, end: () => {} }),
  headersOf: () => ({}),
  close: async () => {},
};

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

export function createTracing(options: { otlpEndpoint?: string | undefined; serviceName: string }): Tracing {
  if (!options.otlpEndpoint) return OFF;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` }),
        scheduledDelayMillis: 500,
      }),
    ],
  });
  const tracer: Tracer = provider.getTracer('paybridge');
  const propagator = new W3CTraceContextPropagator();
  const parentOf = (parent: Context | string | undefined): Context =>
    typeof parent === 'string'
      ? propagator.extract(
          context.active(),
          { traceparent: parent },
          { get: (c, k) => (c as Record<string, string>)[k], keys: (c) => Object.keys(c as object) },
        )
      : (parent ?? context.active());
  return {
    enabled: true,
    async span(name, parent, attributes, fn, kind = 'internal') {
      const span: Span = tracer.startSpan(name, { kind: KINDS[kind], attributes }, parentOf(parent));
      const ctx = trace.setSpan(parentOf(parent), span);
      try {
        const result = await fn(ctx);
        const status = (result as { status?: unknown } | undefined)?.status;
        if (typeof status === 'number') {
          span.setAttribute('http.response.status_code', status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return result;
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    },
    start(name, parent, attributes, kind = 'server') {
      const span: Span = tracer.startSpan(name, { kind: KINDS[kind], attributes }, parentOf(parent));
      return {
        ctx: trace.setSpan(parentOf(parent), span),
        end(status) {
          span.setAttribute('http.response.status_code', status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    headersOf(ctx) {
      if (!ctx) return {};
      const out: Record<string, string> = {};
      propagator.inject(ctx, out, { set: (c, k, v) => ((c as Record<string, string>)[k] = v) });
      return out;
    },
    async close() {
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}
