import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const model = (doc: string, attributes = '') =>
  `${doc
    .split('\n')
    .map((line) => `/// ${line}`)
    .join('\n')}\nmodel Event {\n  id Int @id\n  at DateTime\n${attributes}}`

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

describe('totals', () => {
  it('resolves operation > resource > platform defaults > exact', async () => {
    const { result, problems } = await build(
      model(
        [
          '@pagination(totals: "cached", totalsCacheSeconds: 30)',
          '@operation(name: "guess", path: "/events/guess", totals: "estimated")',
          '@operation(name: "plain", path: "/events/plain", totals: "exact")',
        ].join('\n')
      ),
      'postgresql'
    )
    expect(problems).toEqual([])
    const totals = result?.model.resources[0]?.operations.map((operation) => operation.totals)
    expect(totals).toEqual([
      { mode: 'cached', seconds: 30 },
      { mode: 'estimated' },
      { mode: 'exact' },
    ])
    const code = result?.files.get('event.ts') ?? ''
    // The modes are data; the data-access layer counts (runtime/src/data/data-access.ts).
    expect(code).toContain('totals: { "mode": "cached", "seconds": 30 },')
    expect(code).toContain('totals: { "mode": "estimated" },')
    expect(code).not.toContain('totals: { "mode": "exact" }')
  })

  it('takes the platform default, with 10 s when no duration is given', async () => {
    const { result } = await build(
      model('@pagination(itemsPerPage: 10)'),
      'sqlite',
      'platform:\n  defaults:\n    pagination_totals: cached\n'
    )
    expect(result?.model.resources[0]?.operations[0]?.totals).toEqual({
      mode: 'cached',
      seconds: 10,
    })
  })

  it('counts exactly, with a warning, where the database keeps no estimate', async () => {
    const { result, problems } = await build(
      model('@pagination(totals: "estimated")\n@operation(name: "x", path: "/events/x")'),
      'sqlite'
    )
    expect(problems).toEqual([
      'warning: Model "Event", @pagination, option "totals": "estimated" reads PostgreSQL\'s planner statistics, which sqlite does not keep: totals are exact counts here (use "cached" for cheaper totals on sqlite)',
    ])
    expect(result?.model.resources[0]?.operations.map((operation) => operation.totals)).toEqual([
      { mode: 'exact' },
      { mode: 'exact' },
    ])
  })

  it('refuses a cache duration without cached totals, and values out of range', async () => {
    const { problems } = await build(
      model(
        '@pagination(totalsCacheSeconds: 5)\n@operation(name: "x", path: "/events/x", totals: "sometimes")'
      ),
      'postgresql'
    )
    expect(problems).toEqual([
      'error: Model "Event", @pagination, option "totalsCacheSeconds": (from @pagination) applies only with totals: "cached", and totals is "exact" here',
      'error: Model "Event", @operation(name: "x"), option "totals": must be "exact", "estimated" (PostgreSQL) or "cached", got "sometimes"',
    ])
  })

  it('names the mapped table and the provider in the model source', async () => {
    const mapped = model('@pagination(itemsPerPage: 10)', '  @@map("event`s")\n')
    const mysql = (await build(mapped, 'mysql')).result?.files.get('event.ts') ?? ''
    expect(mysql).toContain(
      'export const eventModel = { delegate: "event", provider: "mysql", table: { name: "event`s", schema: null }, key: { name: "id", kind: \'Int\' }, select: eventSelect, compiled: { select: "SELECT `id`, `at` FROM `event``s`", columns: { "id": ["id", "Int"], "at": ["at", "DateTime"] }, name: "Event", models: compiledModels } } satisfies ModelSource<KeySpec>'
    )
    // The statement itself is the dialect's (runtime/src/database/dialects.test.ts).
  })
})
