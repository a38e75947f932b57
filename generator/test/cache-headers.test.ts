import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const model = (doc: string) =>
  `${doc
    .split('\n')
    .map((line) => `/// ${line}`)
    .join('\n')}\nmodel Event {\n  id Int @id\n  at DateTime\n}`

async function build(models: string, platform?: string) {
  const datamodel = await loadDatamodel(models)
  try {
    const result = buildHydra({
      datamodel,
      provider: 'sqlite',
      clientModule: '../prisma/client.js',
      ...(platform ? { globalConfig: { text: platform, label: './platform.yaml' } } : {}),
    })
    return { result, problems: result.warnings.map(formatProblem) }
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return { result: undefined, problems: error.problems.map(formatProblem) }
  }
}

const controls = (result: Awaited<ReturnType<typeof build>>['result']) => {
  const resource = result?.model.resources[0]
  return {
    item: resource?.cacheControl,
    operations: resource?.operations.map((operation) => operation.cacheControl),
  }
}

describe('cacheHeaders', () => {
  it('resolves operation > resource > platform defaults > none, each level whole', async () => {
    const { result, problems } = await build(
      model(
        [
          '@pagination',
          '@resource(cacheHeaders: { maxAge: 60, public: true })',
          '@operation(name: "fresh", path: "/events/fresh", cacheHeaders: { maxAge: 5, sharedMaxAge: 30, staleWhileRevalidate: 10, staleIfError: 600, mustRevalidate: true })',
          '@operation(name: "none", path: "/events/none", cacheHeaders: null)',
          '@operation(name: "same", path: "/events/same")',
        ].join('\n')
      ),
      'platform:\n  defaults:\n    cache_headers: { max_age: 1 }\n'
    )
    expect(problems).toEqual([])
    expect(controls(result)).toEqual({
      item: 'public, max-age=60',
      operations: [
        'public, max-age=60',
        'max-age=5, s-maxage=30, stale-while-revalidate=10, stale-if-error=600, must-revalidate',
        undefined,
        'public, max-age=60',
      ],
    })
    const code = result?.files.get('event.ts') ?? ''
    expect(code).toContain("cacheControl: 'public, max-age=60',")
    expect(code).toContain(
      "cacheControl: 'max-age=5, s-maxage=30, stale-while-revalidate=10, stale-if-error=600, must-revalidate',"
    )
  })

  it('takes the platform default, and none without any', async () => {
    const platform =
      'platform:\n  defaults:\n    cache_headers: { shared_max_age: 600, public: true, must_revalidate: false }\n'
    const { result } = await build(model('@pagination'), platform)
    expect(controls(result)).toEqual({
      item: 'public, s-maxage=600',
      operations: ['public, s-maxage=600'],
    })
    const plain = await build(model('@pagination'))
    expect(controls(plain.result)).toEqual({ item: undefined, operations: [undefined] })
    expect(plain.result?.files.get('event.ts')).not.toContain('cacheControl')
  })

  it('refuses wrong settings at generation time, naming the key and what is allowed', async () => {
    const { problems } = await build(
      model(
        [
          '@pagination',
          '@resource(cacheHeaders: { maxAge: -1, maxage: 5, public: "yes" })',
          '@operation(name: "x", path: "/events/x", cacheHeaders: { sharedMaxAge: 60, public: false })',
          '@operation(name: "y", path: "/events/y", cacheHeaders: "public, max-age=60")',
        ].join('\n')
      )
    )
    expect(problems).toEqual([
      'error: Model "Event", @resource, option "cacheHeaders.maxAge": must be a whole number of seconds from 0 to 31536000, got -1',
      'error: Model "Event", @resource, option "cacheHeaders.maxage": unknown key. Did you mean "maxAge"? Allowed: maxAge, sharedMaxAge, staleWhileRevalidate, staleIfError, mustRevalidate, public',
      'error: Model "Event", @resource, option "cacheHeaders.public": must be true or false, got "yes"',
      'error: Model "Event", @operation(name: "x"), option "cacheHeaders": sharedMaxAge addresses shared caches, which public: false (private) keeps from storing the response; drop one of them',
      'error: Model "Event", @operation(name: "y"), option "cacheHeaders": must be an object of maxAge, sharedMaxAge, staleWhileRevalidate, staleIfError, mustRevalidate, public (e.g. { maxAge: 60, public: true }), or null for none, got "public, max-age=60"',
    ])
  })

  it('checks the platform file’s cache_headers', async () => {
    const { problems } = await build(
      model('@pagination'),
      'platform:\n  defaults:\n    cache_headers: { max_age: 1.5, sharedmaxage: 3, shared_max_age: 5, public: false }\n'
    )
    expect(problems).toEqual([
      expect.stringContaining('option "sharedmaxage": unknown key. Did you mean "shared_max_age"?'),
      expect.stringContaining(
        'option "max_age": must be a whole number of seconds from 0 to 31536000, got 1.5'
      ),
      expect.stringContaining('option "shared_max_age": shared_max_age addresses shared caches'),
    ])
  })
})
