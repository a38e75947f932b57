/**
 * The project `prisma-hydra init` runs in, as it finds it: its package.json, its Prisma schema at
 * one of the places Prisma looks without being told (`prisma/schema.prisma`, `schema.prisma`),
 * and the signs of a Prisma project whose schema is elsewhere.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { readSchemaBlocks, type SchemaBlock } from './schema-blocks.js'

export interface PackageJson {
  data: Record<string, unknown>
  /** The indentation of its text, kept when it is written back. */
  indent: string
}

export interface FoundSchema {
  /** Relative to the project's root, with forward slashes. */
  path: string
  text: string
  blocks: SchemaBlock[]
}

export interface Project {
  root: string
  packageJson: PackageJson | undefined
  schema: FoundSchema | undefined
  /** Prisma files found although no schema is at the default places (a multi-file schema, say). */
  otherPrismaFiles: string[]
  /** Whether `file` (relative to the root) exists. */
  exists: (file: string) => boolean
}

const SCHEMA_PLACES = ['prisma/schema.prisma', 'schema.prisma']
/**
 * The names Prisma 7 reads its configuration from (`@prisma/config`): `prisma.config.ts`,
 * `prisma7.config.ts` and their folders at the root, anything `prisma` in `.config/`.
 */
const CONFIG_AT_ROOT = /^prisma7?\.config(\.[cm]?[jt]s|\/)$/
const CONFIG_IN_FOLDER = /^prisma/

/** Reads the project at `root`; throws when its package.json is not JSON. */
export function readProject(root: string): Project {
  const exists = (file: string) => existsSync(path.join(root, file))
  const schemaPath = SCHEMA_PLACES.find(exists)
  const schema = schemaPath ? readSchema(root, schemaPath) : undefined
  return {
    root,
    packageJson: exists('package.json') ? readPackageJson(root) : undefined,
    schema,
    otherPrismaFiles: schema ? [] : otherPrismaFiles(root),
    exists,
  }
}

function readSchema(root: string, schemaPath: string): FoundSchema {
  const text = readFileSync(path.join(root, schemaPath), 'utf8')
  return { path: schemaPath, text, blocks: readSchemaBlocks(text) }
}

function readPackageJson(root: string): PackageJson {
  const text = readFileSync(path.join(root, 'package.json'), 'utf8')
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new Error(`package.json is not JSON: ${(error as Error).message}`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error('package.json does not hold an object')
  return { data: data as Record<string, unknown>, indent: /^[ \t]+/m.exec(text)?.[0] ?? '  ' }
}

/** Prisma's config files at the root and `.prisma` files under `prisma/`. */
function otherPrismaFiles(root: string): string[] {
  const found = [
    ...entries(root).filter((name) => CONFIG_AT_ROOT.test(name)),
    ...entries(path.join(root, '.config'))
      .filter((name) => CONFIG_IN_FOLDER.test(name))
      .map((name) => `.config/${name}`),
  ]
  const prismaFiles = (folder: string): string[] =>
    entries(folder).flatMap((name) =>
      name.endsWith('/')
        ? prismaFiles(path.join(folder, name))
        : name.endsWith('.prisma')
          ? [path.relative(root, path.join(folder, name))]
          : []
    )
  return [...found, ...prismaFiles(path.join(root, 'prisma'))].map((file) =>
    file.split(path.sep).join('/')
  )
}

/** The names in `folder` (sub-folders ending in `/`), none when it is not a folder. */
function entries(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? `${entry.name}/` : entry.name
    )
  } catch {
    return []
  }
}
