#!/usr/bin/env node
// Runs a command with Node 22 first on its PATH: Prisma 8's CLI needs Node 22.18 or newer, and the
// rest of the repository runs on the Node it was installed with (20.19 or newer). Node 22 comes
// from the registry's `node` package, installed once into .node/ (not a dependency of the
// workspace: its `node` binary would shadow every workspace's Node).
//
//   node scripts/node22.mjs <command> [args...]
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The Node this workspace's Prisma 8 steps run on, pinned as Prisma 8's release candidate is. */
const VERSION = '22.23.3'
const home = fileURLToPath(new URL('../.node/', import.meta.url))
const bin = path.join(home, 'node_modules', 'node', 'bin')

if (!existsSync(path.join(bin, 'node'))) {
  mkdirSync(home, { recursive: true })
  // The package's own install step fetches the binary for this platform: allowed here alone.
  writeFileSync(
    path.join(home, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { node: VERSION }, allowScripts: { node: true } }, null, 2)}\n`
  )
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', home], {
    stdio: 'inherit',
  })
  if (install.status !== 0) process.exit(install.status ?? 1)
}

const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('usage: node scripts/node22.mjs <command> [args...]')
  process.exit(2)
}
const run = spawnSync(command, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
})
process.exit(run.status ?? 1)
