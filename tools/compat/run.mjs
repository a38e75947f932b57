#!/usr/bin/env node
// The compatibility matrix (`npm run test:compat`): for each row of matrix.mjs, a project of its
// own made from the release tarballs by following docs/getting-started.md (row.mjs), with the
// row's Prisma, Hono and TypeScript pinned and every command and the server run on the row's
// Node.js (from the npm registry: node-binaries.mjs); `prisma generate`, the build and a strict
// `tsc --noEmit`, then the first served request and the page's HTTP checks. It prints each row's
// versions, result and time, and fails when a row fails, or when the range of a peer dependency
// of the packages (optional ones included, which no row installs) refuses the registry's latest.
//
// The Node.js binaries and the better-sqlite3 addons compiled for them are kept in a cache folder
// under the OS's temporary folder (`prisma-hydra-compat`), outside the repository and out of reach
// of `npm ci`: only a first run compiles (a few minutes per Node.js major).
//
// Usage: node tools/compat/run.mjs [--packed] [--keep] [--row <name>]...
//   --packed: install the tarballs `npm run release:pack` left in release/ instead of packing anew
//   --keep: leave the projects in place
//   --row: run only the rows named (matrix.mjs), e.g. `--row lowest`

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { killGroup, running, schemaEngine } from '../install-test/commands.mjs'
import { releasePackages } from '../install-test/packages.mjs'
import { prebuiltMirror, startPrebuiltMirror } from '../install-test/prebuilt-mirror.mjs'
import { phase, printTimings } from '../install-test/timings.mjs'
import { latestOutsideRanges, ROWS, resolveValues, rowVersions } from './matrix.mjs'
import { nodeBinary } from './node-binaries.mjs'
import { walkRow } from './row.mjs'

/** The whole run's bound: a first run compiles better-sqlite3 for two Node.js majors. */
const TOTAL_LIMIT_MS = 25 * 60_000

const { values: options } = parseArgs({
  options: {
    packed: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    row: { type: 'string', multiple: true },
  },
})
const rows = options.row ? ROWS.filter((row) => options.row.includes(row.name)) : ROWS
if (rows.length === 0) throw new Error(`no such row: ${options.row} (${ROWS.map((r) => r.name)})`)

const cacheDir = path.join(tmpdir(), 'prisma-hydra-compat')
const keptDir = path.join(cacheDir, 'prebuilds')
mkdirSync(cacheDir, { recursive: true })
const work = mkdtempSync(path.join(tmpdir(), 'prisma-hydra-compat-'))

setTimeout(() => {
  console.error(`compatibility matrix: over its bound of ${TOTAL_LIMIT_MS / 1000} s, stopped`)
  for (const child of running) killGroup(child)
  printTimings()
  console.log(`projects kept in ${work}`)
  process.exit(1)
}, TOTAL_LIMIT_MS).unref()

/**
 * Prisma's native schema engine, offline: the repository's wasm-backed one (CONTRIBUTING.md, "The
 * clean-project test"), run on this Node.js whatever Node.js is first on the row's PATH, as the
 * native binary would be: it loads the workspace's better-sqlite3, compiled for this Node.js.
 */
function schemaEngineOnThisNode() {
  const wrapper = path.join(work, 'schema-engine')
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${schemaEngine}' "$@"\n`)
  chmodSync(wrapper, 0o755)
  return wrapper
}

/** One line per package of a row's pins: `prisma 7.10.0, @prisma/client 7.10.0, ...`. */
function describe(pins, node) {
  return [`Node.js ${node}`, ...Object.entries(pins).map(([name, v]) => `${name} ${v}`)].join(', ')
}

const results = []
/** The removals of the projects of rows that passed, under way while the next rows run. */
const removals = []
try {
  phase('the release tarballs')
  const tarballs = releasePackages(options.packed)

  phase('the versions the ranges allow, and the latest (npm registry)')
  const [values, refused] = await Promise.all([resolveValues(), latestOutsideRanges()])
  for (const line of refused)
    console.error(`the packages' range refuses the registry's latest: ${line}`)
  results.push({
    name: 'peers',
    versions: 'the registry latest of every peer dependency, in its range',
    passed: refused.length === 0,
    error: refused.join('; '),
    seconds: 0,
  })
  const planned = rows.map((row) => ({ row, ...rowVersions(row, values) }))
  for (const { row, pins, node } of planned) console.log(`${row.name}: ${describe(pins, node)}`)

  phase('Node.js binaries (npm registry)')
  const nodes = new Map()
  for (const { node } of planned)
    if (!nodes.has(node)) nodes.set(node, { ...nodeBinary(node, cacheDir), version: node })
  await startPrebuiltMirror(work, keptDir)
  const engine = schemaEngineOnThisNode()

  for (const { row, pins, node } of planned) {
    const started = Date.now()
    const result = { name: row.name, versions: describe(pins, node) }
    results.push(result)
    try {
      const { betterSqlite3 } = await walkRow(row.name, path.join(work, row.name), {
        tarballs,
        pins,
        node: nodes.get(node),
        keptDir,
        schemaEngine: engine,
      })
      result.passed = true
      result.versions += `, better-sqlite3 ${betterSqlite3}`
      // About 400 MB and 15,000 files each: their removal waits on the disk, the next row on the
      // processors.
      if (!options.keep)
        removals.push(rm(path.join(work, row.name), { recursive: true, force: true }))
    } catch (error) {
      console.error(`${row.name}: FAILED: ${error.message}`)
      result.error = error.message.split('\n')[0]
    }
    result.seconds = (Date.now() - started) / 1000
  }
} finally {
  prebuiltMirror.close()
  const failed = results.length < rows.length + 1 || results.some((result) => !result.passed)
  phase('remove the projects')
  await Promise.all(removals)
  if (failed || options.keep) console.log(`projects kept in ${work}`)
  else rmSync(work, { recursive: true, force: true })
  printTimings()
  console.log('compatibility matrix (docs/getting-started.md in a clean project per row):')
  for (const { name, versions, passed, error, seconds } of results) {
    const verdict = passed ? 'passed' : `FAILED (${error})`
    console.log(`  ${name.padEnd(8)} ${verdict} in ${seconds.toFixed(1)} s: ${versions}`)
  }
  if (failed) process.exitCode = 1
}
