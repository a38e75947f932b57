// Writes a copy of a Prisma schema for another database: the datasource provider is replaced
// (the project's schemas say "sqlite"), and the generators' relative `output` and `config` paths
// are made absolute (against the original schema's folder) so that the copy can live anywhere;
// `outputDir` sends every generator's output to `<outputDir>/<generator name>` instead, and
// `output(absolutePath, generatorName)` to wherever it returns (e.g. a folder per provider).
// Models are left alone: their scalar types map to each database by Prisma's own defaults
// (see CONTRIBUTING.md, "PostgreSQL and MySQL/MariaDB").
//
//   const copy = await writeSchemaCopy({ schemaPath, provider: 'postgresql', dir })

import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

const PROVIDERS = ['sqlite', 'postgresql', 'mysql']
// Top-level `datasource` / `generator` blocks: `kind name { body }` (their bodies hold no braces).
const BLOCK = /^(datasource|generator)[ \t]+(\w+)[ \t]*\{([^}]*)\}/gm

/** Replaces the string value of `key = "..."` in a block body; `replace(value)` gives the new one. */
function replaceValue(body, key, replace) {
  return body.replace(
    new RegExp(`^([ \\t]*${key}[ \\t]*=[ \\t]*)"([^"]*)"`, 'm'),
    (_, head, value) => `${head}${JSON.stringify(replace(value))}`
  )
}

/**
 * Returns `content` with the datasource provider set to `provider` and the generators' paths
 * rewritten (see the file's header). Throws unless the schema has exactly one datasource block.
 *
 * @param {string} content
 * @param {{ provider: string, baseDir: string, outputDir?: string, output?: (absolutePath: string, generator: string) => string }} options
 */
export function rewriteSchema(content, { provider, baseDir, outputDir, output }) {
  if (!PROVIDERS.includes(provider)) {
    throw new Error(`Unknown provider "${provider}" (known: ${PROVIDERS.join(', ')})`)
  }
  let datasources = 0
  const absolute = (value) => (path.isAbsolute(value) ? value : path.resolve(baseDir, value))
  const rewritten = content.replace(BLOCK, (block, kind, name, body) => {
    let next = body
    if (kind === 'datasource') {
      datasources += 1
      if (!/^[ \t]*provider[ \t]*=/m.test(body)) {
        throw new Error(`The datasource "${name}" has no provider`)
      }
      next = replaceValue(next, 'provider', () => provider)
    } else {
      next = replaceValue(next, 'output', (value) => {
        if (outputDir) return path.join(outputDir, name)
        return output ? output(absolute(value), name) : absolute(value)
      })
      next = replaceValue(next, 'config', absolute)
    }
    return block.replace(body, next)
  })
  if (datasources !== 1) {
    throw new Error(`Expected one datasource block, found ${datasources}`)
  }
  return rewritten
}

/**
 * Writes the copy of the schema file `schemaPath` for `provider` to `<dir>/schema.prisma` and
 * returns its path.
 *
 * @param {{ schemaPath: string, provider: string, dir: string, outputDir?: string, output?: (absolutePath: string, generator: string) => string }} options
 * @returns {Promise<string>}
 */
export async function writeSchemaCopy({ schemaPath, provider, dir, outputDir, output }) {
  const source = path.resolve(schemaPath)
  const content = rewriteSchema(await readFile(source, 'utf8'), {
    provider,
    baseDir: path.dirname(source),
    outputDir,
    output,
  })
  await mkdir(dir, { recursive: true })
  const copy = path.join(dir, 'schema.prisma')
  await writeFile(copy, content)
  return copy
}
