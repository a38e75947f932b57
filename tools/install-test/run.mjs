#!/usr/bin/env node
// The clean-project test: does what a user does, outside this repository. It makes the release
// tarballs with the release command (`npm run release:pack`), creates projects in a temporary
// folder and follows the walk-throughs of the docs top to bottom: the doc's blocks marked
// `step=<name>` are the commands it runs (through `sh`, in the project folder, with the release
// tarballs made here in place of those they name) and the blocks marked `file=<path>` the files
// it writes, in the doc's order.
//
// - docs/getting-started.md by hand (SQLite): then it checks the running server over HTTP
//   (entrypoint, a page, an item, errors, the documentation, and requests only raw bytes can
//   send), the types a user sees, and the source maps of the installed packages
//   (getting-started.mjs).
// - docs/runtime-bun-deno.md, in the same project (libsql, the Bun and Deno entry, both runtimes
//   from the npm registry): then it starts the server on Bun and on Deno and checks each over HTTP
//   as getting-started's server, and against that server's answers (runtime-bun-deno.mjs).
// - docs/runtime-workers.md, in the same project again (wrangler and the D1 adapter from the npm
//   registry, the schema and routes for workerd, D1 tables from Prisma's migration script): then
//   it serves the Worker with `wrangler dev --local` and checks it as the Bun and Deno servers
//   (runtime-workers.mjs).
// - docs/getting-started.md's quick path, `npx prisma-hydra init`, in an empty folder and in a
//   project `npx prisma init` made: each server checked as getting-started's and against its
//   answers, and the time from the dependencies installed to the first served request printed
//   (init-walks.mjs).
// - docs/tutorial-access.md (PostgreSQL, tokens, access rules, typed clients), on a database of
//   its own on the server of DATABASE_URL_POSTGRES, and only when that is set: then it checks the
//   tenants' rows, a rejected token, a composite key through openapi-fetch and the types of a
//   hideable field and of a guard's answers (access-tutorial.mjs).
// - docs/prisma-8.md (Prisma 8's release candidates from the npm registry, on Node 22), on a
//   database of its own on the same server, when it is set: the contract emitted, the routes
//   generated and typechecked, the server asked over HTTP (prisma8.mjs).
//
// Offline, the Prisma CLI cannot download its native schema engine: PRISMA_SCHEMA_ENGINE_BINARY
// points it at this repository's wasm-backed engine (CONTRIBUTING.md, "The clean-project test").
// Everything else comes from the npm registry, as for a user.
//
// Usage: node tools/install-test/run.mjs [--keep] [--packed]
//   --keep: leave the projects in place
//   --packed: install the tarballs `npm run release:pack` left in release/ instead of packing anew

import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { walkAccessTutorial } from './access-tutorial.mjs'
import { killGroup, running, schemaEngine } from './commands.mjs'
import { walkGettingStarted } from './getting-started.mjs'
import { walkInit } from './init-walks.mjs'
import { releasePackages } from './packages.mjs'
import { prebuiltMirror, reportPrebuiltMirror, startPrebuiltMirror } from './prebuilt-mirror.mjs'
import { walkPrisma8 } from './prisma8.mjs'
import { walkBunDeno } from './runtime-bun-deno.mjs'
import { walkWorkers } from './runtime-workers.mjs'
import { phase, printTimings } from './timings.mjs'

/**
 * The walks' bound, against a hang (each command has its own): well above the 3 to 5 minutes
 * they take on an idle machine, and the 15 they came to beside `npm test` on CI's loaded 2-core
 * machine. The removal of the projects after them is not bounded: a passed run is not stopped
 * while it removes them.
 */
const TOTAL_LIMIT_MS = 25 * 60_000

const keep = process.argv.includes('--keep')
const work = mkdtempSync(path.join(tmpdir(), 'prisma-hydra-install-'))
const postgres = process.env.DATABASE_URL_POSTGRES

// The walks' bound: stop every command still running, keep the project to look at.
const bound = setTimeout(() => {
  console.error(`clean-project test: over its bound of ${TOTAL_LIMIT_MS / 1000} s, stopped`)
  for (const child of running) killGroup(child)
  printTimings()
  console.log(`projects kept in ${work}`)
  process.exit(1)
}, TOTAL_LIMIT_MS).unref()

let failed = true
try {
  phase('the release tarballs')
  const tarballs = releasePackages(process.argv.includes('--packed'))
  chmodSync(schemaEngine, 0o755)
  await startPrebuiltMirror(work)

  const myApi = path.join(work, 'my-api')
  const nodeAnswers = await walkGettingStarted(myApi, tarballs)
  await walkBunDeno(myApi, tarballs, nodeAnswers)
  await walkWorkers(myApi, tarballs, nodeAnswers)
  await walkInit(path.join(work, 'quick-api'), tarballs, nodeAnswers, { prismaProject: false })
  await walkInit(path.join(work, 'prisma-api'), tarballs, nodeAnswers, { prismaProject: true })
  if (postgres) await walkAccessTutorial(path.join(work, 'tasks-api'), tarballs, postgres, keep)
  if (postgres) await walkPrisma8(path.join(work, 'books-api-prisma8'), tarballs, postgres, keep)
  failed = false
} finally {
  clearTimeout(bound)
  prebuiltMirror.close()
  reportPrebuiltMirror()
  if (failed || keep) console.log(`projects kept in ${work}`)
  else {
    phase('remove the projects') // about 15,000 files and 380 MB each: a minute on a slow disk
    rmSync(work, { recursive: true, force: true })
  }
  printTimings()
}
if (postgres) console.log('clean-project test passed')
else {
  console.log(
    'clean-project test passed: docs/getting-started.md (SQLite, by hand and with prisma-hydra init), docs/runtime-bun-deno.md, docs/runtime-workers.md'
  )
  console.log(
    'docs/tutorial-access.md (PostgreSQL): skipped: set DATABASE_URL_POSTGRES (e.g. postgres://postgres@127.0.0.1:5432/test) to follow it on PostgreSQL'
  )
}
