/**
 * Where a project's files are, as `prisma-hydra init` writes them: the schema, the folders of the
 * generated client and routes, and what the files under `src/` import from them.
 */

import path from 'node:path'

/** Every path relative to the project's root, with forward slashes. */
export interface Layout {
  /** `prisma/schema.prisma`, or `schema.prisma`. */
  schemaPath: string
  /** The generated Prisma client's folder: `src/generated/prisma`. */
  clientFolder: string
  /** The generated routes' folder: `src/generated/hydra`. */
  hydraFolder: string
}

/** The layout of docs/getting-started.md. */
export const DEFAULT_LAYOUT: Layout = {
  schemaPath: 'prisma/schema.prisma',
  clientFolder: 'src/generated/prisma',
  hydraFolder: 'src/generated/hydra',
}

/** A generator's `output` (relative to the schema's folder) as a folder of the project. */
export function projectFolder(layout: Pick<Layout, 'schemaPath'>, output: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(layout.schemaPath), output))
}

/** A folder of the project as a generator's `output`, relative to the schema's folder. */
export function schemaOutput(layout: Pick<Layout, 'schemaPath'>, folder: string): string {
  return dotted(path.posix.relative(path.posix.dirname(layout.schemaPath), folder))
}

/** What a module in `src/` imports to reach `file` in the project (`./generated/hydra/index.js`). */
export function importFromSrc(file: string): string {
  return dotted(path.posix.relative('src', file))
}

/** The folders TypeScript compiles: `src` alone when the generated code is in it. */
export function compiledFolders(folders: readonly string[]): string[] {
  const outside = folders
    .map((folder) => folder.split('/')[0] as string)
    .filter((top) => top !== 'src')
  return ['src', ...new Set(outside)]
}

/** The compiled file of `src/<name>.ts`: `dist/<name>.js`, or `dist/src/<name>.js`. */
export function compiledEntry(folders: readonly string[], name: string): string {
  return compiledFolders(folders).length === 1 ? `dist/${name}.js` : `dist/src/${name}.js`
}

function dotted(relative: string): string {
  return relative.startsWith('.') ? relative : `./${relative}`
}
