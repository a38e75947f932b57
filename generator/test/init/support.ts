// What the tests of `prisma-hydra init` share: a project folder of their own, init run in it, and
// the marked blocks of the docs whose files init writes.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'
import { runCommand } from '../../src/init/command.js'

const docs = fileURLToPath(new URL('../../../docs/', import.meta.url))
const folders: string[] = []

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A new empty folder called `name` (a project's name is its folder's), removed after the test. */
export function projectFolder(name = 'my-api'): string {
  const parent = mkdtempSync(path.join(tmpdir(), 'prisma-hydra-init-'))
  folders.push(parent)
  const folder = path.join(parent, name)
  mkdirSync(folder)
  return folder
}

/** Writes `files` (path → text) into `folder`. */
export function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true })
    writeFileSync(path.join(folder, file), text)
  }
}

/** Every file of `folder` (relative paths, sorted) with its text. */
export function readFiles(folder: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    files[path.relative(folder, file).split(path.sep).join('/')] = readFileSync(file, 'utf8')
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)))
}

/** Runs `prisma-hydra init` (or `prisma-hydra <args>`) in `folder`. */
export function init(folder: string, ...args: string[]) {
  return run(folder, args.length > 0 ? args : ['init'])
}

/** Runs `prisma-hydra <args>` in `folder`: its exit code and what it printed on each stream. */
export function run(folder: string, args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = runCommand(args, folder, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** The blocks of `docs/<page>` marked `file=<path>`, by path, and `step=<name>`, by name. */
export function docBlocks(page: string) {
  const markdown = readFileSync(path.join(docs, page), 'utf8')
  const files = new Map<string, string>()
  const steps = new Map<string, string>()
  for (const match of markdown.matchAll(/^```\S*([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    const attributes = match[1] ?? ''
    const body = match[2] ?? ''
    const file = /\bfile=(\S+)/.exec(attributes)?.[1]
    const step = /\bstep=(\S+)/.exec(attributes)?.[1]
    if (file) files.set(file, body)
    if (step) steps.set(step, body)
  }
  return { files, steps }
}

/** The package.json of `folder`. */
export function packageJson(folder: string): Record<string, unknown> & {
  scripts?: Record<string, string>
} {
  return JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'))
}
