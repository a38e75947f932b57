import type { GeneratorConfig } from '@prisma/generator-helper'

/** The values Prisma 7's `prisma-client` generator accepts (its own lists, Prisma 7.10). */
const RUNTIMES = ['nodejs', 'deno', 'bun', 'workerd', 'cloudflare', 'vercel-edge', 'edge-light']
const MODULE_FORMATS = ['esm', 'cjs']
const GENERATED_EXTENSIONS = ['ts', 'mts', 'cts']
const IMPORT_EXTENSIONS = ['', 'ts', 'mts', 'cts', 'js', 'mjs', 'cjs']

/** How the routes name their files and their relative imports, to match the client's. */
export interface ModuleNaming {
  /** The generated files' extension, with its dot: `.ts`, `.mts`, `.cts`. */
  fileExtension: string
  /** The extension of relative imports, with its dot, or `''`. */
  importExtension: string
}

/**
 * Reads the options of the `prisma-client` block that change file names or module format, and
 * checks them as Prisma does, so that a value Prisma refuses fails here before anything is
 * written (Prisma runs every generator even when one fails). Throws one error naming each bad
 * option.
 *
 * The routes take the client's file extension and import extension. Without an explicit
 * `importFileExtension`, Prisma infers one from the nearest tsconfig; the routes use the
 * extension of the compiled file (`.js`, `.mjs`, `.cjs`), which TypeScript resolves under every
 * module resolution, or, for Deno, the file's own extension as Prisma does.
 */
export function clientModuleNaming(
  client: Pick<GeneratorConfig, 'name' | 'config'>,
  ownImportExtension: string | undefined
): ModuleNaming {
  const problems: string[] = []
  const option = (key: string, allowed: string[], ignoreCase = false): string | undefined => {
    const value = client.config[key]
    if (value === undefined) return undefined
    const text = typeof value === 'string' ? value : undefined
    const normalized = ignoreCase ? text?.toLowerCase() : text
    if (normalized === undefined || !allowed.includes(normalized)) {
      problems.push(
        `option "${key}" is ${JSON.stringify(value)}; Prisma accepts ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
      )
      return undefined
    }
    return normalized
  }
  const runtime = option('runtime', RUNTIMES, true)
  option('moduleFormat', MODULE_FORMATS, true)
  const generated = option('generatedFileExtension', GENERATED_EXTENSIONS) ?? 'ts'
  const explicit = option('importFileExtension', IMPORT_EXTENSIONS)
  if (problems.length > 0) {
    throw new Error(
      `prisma-hydra cannot follow the generator "${client.name}" (prisma-client), which Prisma refuses:\n${problems.map((p) => `  - ${p}`).join('\n')}`
    )
  }
  const compiled = { ts: 'js', mts: 'mjs', cts: 'cjs' }[generated] ?? 'js'
  const imported = explicit ?? ownImportExtension ?? (runtime === 'deno' ? generated : compiled)
  return {
    fileExtension: `.${generated}`,
    importExtension: imported === '' ? '' : `.${imported.replace(/^\./, '')}`,
  }
}
