/**
 * One derivation of order keys over two descriptions of a model: the runtime's `orderKeyOf`
 * (runtime/src/contract/order-key.ts) runs in the generator over its model of the schema
 * (generator/src/config/paging/order.ts: the key whose columns the generated `select` reads) and in
 * `defineOperations` over the resource a generated module describes (its key, fields and
 * `unshown` fields). For the example and every fixture, each operation's key in the generated
 * modules, as loaded, must be the model's: the emitted description lacks no field the key needs.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { getConfig, getDMMF } from '@prisma/internals'
import { buildHydra } from '@prisma-hydra/generator'
import { expect, it } from 'vitest'

/** The example's schema and every fixture's, each generated where its hydra block says. */
async function schemas(): Promise<string[]> {
  const fixtures = new URL('./fixtures/', import.meta.url).pathname
  const folders = (await readdir(fixtures, { withFileTypes: true })).filter((entry) =>
    entry.isDirectory()
  )
  return [
    new URL('../../prisma/schema.prisma', import.meta.url).pathname,
    ...folders.map((folder) => path.join(fixtures, folder.name, 'schema.prisma')),
  ]
}

/** A key as both sides can be compared: the runtime's literal, absent when there is none. */
type Key = { field: string; direction: string; type: string; uuid?: true }[] | null

const comparable = (key: readonly { uuid?: boolean | undefined }[] | null | undefined): Key =>
  key
    ? key.map(({ uuid, ...field }) => ({
        ...(field as { field: string; direction: string; type: string }),
        ...(uuid ? { uuid: true as const } : {}),
      }))
    : null

/** Each operation's key in the generator's model of a schema, by `Model operation`. */
async function modelKeys(schema: string): Promise<{ keys: Map<string, Key>; output: string }> {
  const text = await readFile(schema, 'utf8')
  const config = await getConfig({ datamodel: text })
  const hydra = config.generators.find((generator) => generator.provider.value === 'prisma-hydra')
  if (!hydra?.output?.value) throw new Error(`${schema} has no prisma-hydra generator block`)
  const folder = path.dirname(schema)
  const platform = hydra.config.config
  const globalConfig =
    typeof platform === 'string'
      ? { text: await readFile(path.resolve(folder, platform), 'utf8'), label: platform }
      : undefined
  const { model } = buildHydra({
    datamodel: (await getDMMF({ datamodel: text })).datamodel,
    provider: config.datasources[0]?.activeProvider ?? 'sqlite',
    clientModule: '../prisma/client.js',
    ...(globalConfig ? { globalConfig } : {}),
  })
  const keys = new Map<string, Key>()
  for (const resource of model.resources)
    for (const operation of resource.operations)
      keys.set(`${resource.name} ${operation.name}`, comparable(operation.orderKey))
  return { keys, output: path.resolve(folder, hydra.output.value) }
}

/** An operation of a generated module's `…Operations`, as `defineOperations` returned it. */
type Defined = { name: string; resource: { name: string }; orderKey?: readonly object[] }

/** Each operation's key in the generated modules, as the runtime derived it on loading them. */
async function loadedKeys(output: string): Promise<Map<string, Key>> {
  const index = (await import(pathToFileURL(path.join(output, 'index.ts')).href)) as Record<
    string,
    unknown
  >
  const keys = new Map<string, Key>()
  for (const [name, value] of Object.entries(index)) {
    if (!name.endsWith('Operations')) continue
    for (const operation of Object.values(value as Record<string, Defined>))
      keys.set(`${operation.resource.name} ${operation.name}`, comparable(operation.orderKey))
  }
  return keys
}

/**
 * Every schema is read by Prisma's wasm engine and every generated module loaded through Vite's
 * transform, one after the other: over a minute on a loaded 2-core machine, and growing with the
 * fixtures. The bound only stops a hang.
 */
const ALL_SCHEMAS_LIMIT_MS = 300_000

it('every operation of every generated schema keys its batches by the model’s order key', {
  timeout: ALL_SCHEMAS_LIMIT_MS,
}, async () => {
  let compared = 0
  let keyed = 0
  const mismatches: string[] = []
  const all = await schemas()
  for (const schema of all) {
    const { keys, output } = await modelKeys(schema)
    const loaded = await loadedKeys(output)
    expect([...loaded.keys()].sort(), output).toEqual([...keys.keys()].sort())
    for (const [operation, key] of keys) {
      compared++
      if (key) keyed++
      const derived = loaded.get(operation)
      if (JSON.stringify(derived) !== JSON.stringify(key))
        mismatches.push(
          `${path.relative(process.cwd(), schema)}: ${operation}: the runtime derives ${JSON.stringify(derived)}, the model has ${JSON.stringify(key)}`
        )
    }
  }
  process.stdout.write(
    `Order keys: ${compared} operations of ${all.length} schemas compared (${keyed} keyed), ${mismatches.length} mismatches\n`
  )
  expect(mismatches).toEqual([])
  expect(compared).toBeGreaterThan(100)
})
