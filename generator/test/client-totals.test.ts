import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const model = (doc: string) =>
  `${doc
    .split('\n')
    .map((line) => `/// ${line}`)
    .join('\n')}\nmodel Event {\n  id Int @id\n  at DateTime\n}`

async function build(models: string, provider: string, platform?: string) {
  const datamodel = await loadDatamodel(models)
  try {
    const result = buildHydra({
      datamodel,
      provider,
      clientModule: '../prisma/client.js',
      ...(platform ? { globalConfig: { text: platform, label: './platform.yaml' } } : {}),
    })
    return { result, problems: result.warnings.map(formatProblem) }
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return { result: undefined, problems: error.problems.map(formatProblem) }
  }
}

const modesOf = (result: Awaited<ReturnType<typeof build>>['result']) =>
  result?.model.resources[0]?.operations.map((operation) => operation.paging.clientTotals)

describe('clientTotals (docs/paging.md#client-totals)', () => {
  it('resolves operation > resource > platform defaults > none, true as every total', async () => {
    const { result, problems } = await build(
      model(
        [
          '@pagination(paginationClientTotals: ["none", "exact"])',
          '@operation(name: "every", path: "/events/every", clientTotals: true)',
          '@operation(name: "fixed", path: "/events/fixed", clientTotals: false)',
          '@operation(name: "inherited", path: "/events/inherited")',
        ].join('\n')
      ),
      'postgresql'
    )
    expect(problems).toEqual([])
    expect(modesOf(result)).toEqual([
      ['none', 'exact'],
      ['exact', 'estimated', 'planned', 'none'],
      undefined,
      ['none', 'exact'],
    ])
    const code = result?.files.get('event.ts') ?? ''
    expect(code).toContain("clientPartial: false, clientTotals: ['none', 'exact'] }")
    expect(code.match(/clientTotals/g)?.length).toBe(3)
    const global = await build(
      model('@pagination'),
      'sqlite',
      'platform:\n  defaults:\n    pagination_client_totals: true\n'
    )
    expect([global.problems, modesOf(global.result)]).toEqual([
      [],
      [['exact', 'estimated', 'planned', 'none']],
    ])
  })

  it('refuses other values, repeated totals and a collection that is never paged', async () => {
    const { problems } = await build(
      model(
        [
          '@pagination(clientTotals: ["exact", "exact"])',
          '@operation(name: "a", path: "/events/a", clientTotals: "exact")',
          '@operation(name: "b", path: "/events/b", clientTotals: ["cached"])',
          '@operation(name: "c", path: "/events/c", clientTotals: [])',
          '@operation(name: "d", path: "/events/d", enabled: false, clientTotals: true)',
        ].join('\n')
      ),
      'postgresql'
    )
    const allowed =
      'true, false, or a list of distinct totals among "exact", "estimated", "planned", "none"'
    expect(problems).toEqual([
      `error: Model "Event", @pagination, option "clientTotals": must be ${allowed}, got ["exact","exact"]`,
      `error: Model "Event", @operation(name: "a"), option "clientTotals": must be ${allowed}, got "exact"`,
      `error: Model "Event", @operation(name: "b"), option "clientTotals": must be ${allowed}, got ["cached"]`,
      `error: Model "Event", @operation(name: "c"), option "clientTotals": must be ${allowed}, got []`,
      'error: Model "Event", @operation(name: "d"), option "clientTotals": applies to paged collections, and this one is never paged (enabled: false, clientEnabled: false)',
    ])
  })

  it('warns of estimates named where the database keeps none', async () => {
    const { result, problems } = await build(
      model(
        '@pagination(clientTotals: ["planned", "none"])\n@operation(name: "x", path: "/events/x", clientTotals: true)'
      ),
      'mysql'
    )
    expect(problems).toEqual([
      'warning: Model "Event", @pagination, option "clientTotals": "planned" reads PostgreSQL\'s planner statistics, which mysql does not keep: it is an exact count here',
    ])
    expect(modesOf(result)).toEqual([
      ['planned', 'none'],
      ['exact', 'estimated', 'planned', 'none'],
    ])
  })
})
