import { context, ProxyTracerProvider, trace } from '@opentelemetry/api'
import { describe, expect, it, vi } from 'vitest'
import { consoleLogger } from './logger.js'
import { ServerTiming } from './server-timing.js'
import { inSpan, loadedTracer, type TraceContextApi, type Tracer, tracerOf } from './tracing.js'

describe('the tracer', () => {
  it("is @opentelemetry/api's, as the runtime's own type describes it", async () => {
    // Compiles only while the package's Tracer has what the runtime calls.
    const tracer: Tracer = trace.getTracer('check')
    expect(tracer).toBeDefined()
    const contexts: TraceContextApi = context
    expect(contexts.with(contexts.active() as never, () => 1)).toBe(1)
    expect(loadedTracer(undefined)).toBeUndefined()
    // No provider registered: its spans would record nothing, and none is made.
    expect(await tracerOf(undefined)).toBeUndefined()
    // A provider registered after the package was loaded (any provider: the API's proxy is one).
    expect(trace.setGlobalTracerProvider(new ProxyTracerProvider())).toBe(true)
    try {
      const loaded = await tracerOf(undefined)
      expect(loaded).toBeDefined()
      expect(loadedTracer(undefined)).toBe(loaded)
      expect(tracerOf(false)).toBeUndefined()
      expect(loadedTracer(false)).toBeUndefined()
    } finally {
      trace.disable()
    }
    expect(await tracerOf(undefined)).toBeUndefined()
    expect(loadedTracer(undefined)).toBeUndefined()
  })

  it('runs the work without a tracer, and rethrows its failure with one', async () => {
    expect(await inSpan(undefined, 'none', {}, async (span) => span)).toBeUndefined()
    trace.setGlobalTracerProvider(new ProxyTracerProvider())
    try {
      const tracer = await tracerOf(undefined)
      expect(tracer).toBeDefined()
      await expect(
        inSpan(tracer, 'failing', {}, async () => {
          throw new Error('failed')
        })
      ).rejects.toThrow('failed')
    } finally {
      trace.disable()
    }
  })
})

describe('Server-Timing', () => {
  it('sums each metric and writes none when nothing was measured', async () => {
    const timing = new ServerTiming()
    expect(timing.header()).toBeUndefined()
    timing.add('db', 1.234)
    timing.add('db', 1)
    await timing.measure('count', Promise.resolve(3))
    timing.time('serialize', () => 1)
    expect(timing.header()).toMatch(/^db;dur=2\.23, count;dur=\d+\.\d\d, serialize;dur=\d+\.\d\d$/)
  })
})

describe('the console logger', () => {
  it('writes the prefix and the message, and the error after it', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const error = new Error('cause')
      consoleLogger({ level: 'info', message: 'one line', fields: { event: 'x' } })
      consoleLogger({ level: 'error', message: 'failed', fields: { event: 'y', error } })
      expect(spy.mock.calls).toEqual([['prisma-hydra: one line'], ['prisma-hydra: failed', error]])
    } finally {
      spy.mockRestore()
    }
  })
})
