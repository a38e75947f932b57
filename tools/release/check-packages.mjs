#!/usr/bin/env node
// The package checks (`npm run check:packages`, a stage of .ci/run), on the tarballs of
// `npm run release:pack` as npm would publish them:
// - publint, strict (its warnings fail too): package.json's entry points, `exports` and `files`
//   against what the tarball holds, and each file's module format against its condition;
// - Are the Types Wrong (attw): how TypeScript resolves each entry point's types, and Node its
//   JavaScript, under `node16` (from CommonJS and from ES modules) and `bundler`.
//
// Usage: node tools/release/check-packages.mjs

import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { releaseTarballs, root } from './release-packages.mjs'

/**
 * attw's profile of each package. The runtime ships a CommonJS build beside its ES modules
 * (docs/annotations.md, `moduleFormat = "cjs"`), so `node16` checks both `require` and `import`
 * and `bundler`; it leaves out only `node10`, which reads no `exports` and so none of the
 * subpath entries (`/generated`, `/node`, ...), and which TypeScript itself has deprecated. The
 * generator is ES modules only (a Prisma generator run by its bin, imported by nobody's
 * CommonJS): `esm-only` leaves out `require` too.
 */
const PROFILES = { runtime: 'node16', generator: 'esm-only' }

/** Each check's bound: seconds are enough; a hung one fails the stage. */
const CHECK_LIMIT_MS = 3 * 60_000

/** Runs a tool of node_modules/.bin on its output; true when it passed. */
function check(tool, args) {
  console.log(`$ ${tool} ${args.map((arg) => path.relative(root, arg) || arg).join(' ')}`)
  const result = spawnSync(path.join(root, 'node_modules/.bin', tool), args, {
    stdio: 'inherit',
    timeout: CHECK_LIMIT_MS,
  })
  return result.status === 0
}

const failed = []
for (const [name, { tarball, dir }] of Object.entries(releaseTarballs())) {
  if (!check('publint', ['--strict', tarball])) failed.push(`publint: ${name}`)
  if (!check('attw', ['--profile', PROFILES[dir], tarball])) failed.push(`attw: ${name}`)
}
if (failed.length > 0) {
  console.error(`package checks failed: ${failed.join(', ')}`)
  process.exit(1)
}
console.log('package checks passed: publint and attw on every release tarball')
