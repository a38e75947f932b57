/**
 * @module
 * OpenTelemetry spans (docs/operations.md#tracing), through `@opentelemetry/api` when the app has
 * it: an optional peer dependency, loaded once by its name when the first request needs it, so an
 * app without it installs nothing, imports nothing and pays nothing (every span helper then runs
 * the work as it is). With the package but no tracer provider registered (no SDK), its spans would
 * record nothing, and none is made: the API's global proxy is asked, per request, whether a
 * provider was registered since (a few calls, where two no-op spans are a few dozen).
 *
 * The package's own types are not named here: an app without it type-checks the runtime's
 * declarations all the same. What the runtime calls of it is the few members below, which
 * `tracing.test.ts` checks against the package's types.
 */
/** Attribute values of a span, as OpenTelemetry takes them. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>

/** The members of an OpenTelemetry `Span` the runtime calls. */
export interface TraceSpan {
  /** Adds attributes to the span. */
  setAttributes(attributes: SpanAttributes): unknown
  /** Sets the span's status (OpenTelemetry's `SpanStatusCode`: 2 for an error). */
  setStatus(status: { code: number; message?: string }): unknown
  /** Records an exception as an event of the span. */
  recordException(exception: Error | string): unknown
  /** Ends the span. */
  end(): void
}

/** The member of an OpenTelemetry `Tracer` the runtime calls: a span active while `fn` runs. */
export interface Tracer {
  /**
   * Runs `fn` with a new span, active while it runs, and returns what `fn` returns.
   *
   * @typeParam F - The work run in the span.
   */
  startActiveSpan<F extends (span: TraceSpan) => unknown>(
    name: string,
    options: { attributes?: SpanAttributes },
    fn: F
  ): ReturnType<F>
}

/**
 * The members of `@opentelemetry/api`'s `context` the runtime calls: the context active now (its
 * span, in the trace it belongs to) and work run in a context taken earlier.
 */
export interface TraceContextApi {
  active(): unknown
  with<R>(context: never, fn: () => R): R
}

/** The members of `@opentelemetry/api` the runtime calls. */
interface OpenTelemetryApi {
  trace: { getTracer(name: string): Tracer; getTracerProvider(): object }
  context: TraceContextApi
  ProxyTracerProvider: new () => { getDelegate(): object }
}

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
const ERROR = 2
/** The package, named through a variable: bundlers leave an optional dependency to the runtime. */
const PACKAGE = '@opentelemetry/api'

/** The runtime's tracer: undefined until loaded, null when the package is not there. */
let tracer: Tracer | null | undefined
/** The package's `context`, once loaded. */
let contexts: TraceContextApi | undefined
let loading: Promise<Tracer | undefined> | undefined
/** Whether a tracer provider is registered with the loaded package. */
let registered = (): boolean => false

function load(): Promise<Tracer | undefined> {
  loading ??= import(/* @vite-ignore */ PACKAGE).then(
    (api: OpenTelemetryApi) => {
      tracer = api.trace.getTracer('@prisma-hydra/runtime')
      contexts = api.context
      // What the global proxy delegates to while no provider is registered: the API's no-op one,
      // which a proxy of its own gives too. Another proxy (another copy of the API registered
      // globally) or a provider without `getDelegate` counts as registered.
      const none = new api.ProxyTracerProvider().getDelegate()
      registered = () => {
        const provider = api.trace.getTracerProvider() as { getDelegate?: () => object }
        return typeof provider.getDelegate !== 'function' || provider.getDelegate() !== none
      }
      return tracer
    },
    () => {
      tracer = null
      return undefined
    }
  )
  return loading
}

/**
 * The tracer of an app whose `tracing` option is not `false`: undefined without the package, or
 * while no tracer provider is registered; a promise the first time, while the package loads (await
 * it once, then it is a plain value).
 */
export function tracerOf(
  enabled: boolean | undefined
): Tracer | undefined | Promise<Tracer | undefined> {
  if (enabled === false || tracer === null) return undefined
  if (tracer === undefined) return load().then(() => loadedTracer(enabled))
  return registered() ? tracer : undefined
}

/**
 * The tracer as loaded so far, without loading it: for reads below the routes, which run once
 * their route has awaited `tracerOf`. Undefined while no tracer provider is registered.
 */
export function loadedTracer(enabled: boolean | undefined): Tracer | undefined {
  return enabled === false || !tracer || !registered() ? undefined : tracer
}

/**
 * Runs `work` in a span named `name`, active while it runs (the spans started within are its
 * children: Prisma's, the SQL's), ended when it settles. A failure of the server is the span's
 * error; a client's error (a 4xx problem) leaves its status unset and is named by
 * `hydra.problem.status`. Without a tracer, `work` runs as it is.
 */
export function inSpan<T>(
  tracer: Tracer | undefined,
  name: string,
  attributes: SpanAttributes,
  work: (span: TraceSpan | undefined) => Promise<T>
): Promise<T> {
  if (!tracer) return work(undefined)
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span)
    } catch (error) {
      const status = clientStatus(error)
      if (status !== undefined) {
        span.setAttributes({ 'hydra.problem.status': status })
      } else {
        span.recordException(error instanceof Error ? error : String(error))
        span.setStatus(
          error instanceof Error ? { code: ERROR, message: error.message } : { code: ERROR }
        )
      }
      throw error
    } finally {
      span.end()
    }
  })
}

/** The status of a client's error (a HydraError's, an HTTPException's below 500), or undefined. */
function clientStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | undefined)?.status
  return typeof status === 'number' && status < 500 ? status : undefined
}

/**
 * `iterable`, each of whose reads runs in the context active now: the spans its reads start (their
 * queries) are children of the span running now, however late the reads come. An unpaged
 * collection is streamed after its route returned, as the client takes it, where the request's
 * context is no longer active (docs/operations.md#tracing). Without a tracer, `iterable` as it is.
 */
export function inActiveContext<T>(
  tracer: Tracer | undefined,
  iterable: AsyncIterable<T>
): AsyncIterable<T> {
  if (!tracer || !contexts) return iterable
  const api = contexts
  const active = api.active() as never
  return {
    [Symbol.asyncIterator]() {
      const iterator = iterable[Symbol.asyncIterator]()
      return {
        next: () => api.with(active, () => iterator.next()),
        return: (value?: unknown) =>
          api.with(active, () =>
            iterator.return
              ? iterator.return(value)
              : Promise.resolve({ done: true as const, value: undefined })
          ),
      }
    },
  }
}
