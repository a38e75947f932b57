#!/usr/bin/env node
// The release command (`npm run release:pack`): packs the runtime and the generator as npm
// publishes them (`npm pack`, whose `prepack` builds each package from a clean `dist`) into
// `release/`, then checks what each tarball holds (tarball-contents.mjs). These tarballs are what
// a user installs before the packages are on the registry, what `npm run check:packages` lints
// and what the clean-project test installs (CONTRIBUTING.md, "Releases").
//
// Usage: node tools/release/pack.mjs

import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { PACKAGE_DIRS, packageJson, releaseDir, root } from './release-packages.mjs'
import { releaseProblems, tarballProblems } from './tarball-contents.mjs'

/** A package's build and pack: well above the minute it takes on a loaded 2-core machine. */
const PACK_LIMIT_MS = 8 * 60_000

/** Packs the package of `dir` into `release/`: npm's report of the tarball. */
function pack(dir) {
  const result = spawnSync('npm', ['pack', '--json', '--pack-destination', releaseDir], {
    cwd: path.join(root, dir),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: PACK_LIMIT_MS,
  })
  if (result.status !== 0) throw new Error(`npm pack in ${dir}: exit ${result.status}`)
  // The build's own output comes first; npm's JSON report is the array after it.
  const report = result.stdout.slice(result.stdout.search(/^\[$/m))
  return JSON.parse(report)[0]
}

mkdirSync(releaseDir, { recursive: true })
for (const file of readdirSync(releaseDir)) {
  if (file.endsWith('.tgz')) rmSync(path.join(releaseDir, file))
}

const problems = []
for (const dir of PACKAGE_DIRS) {
  const packed = pack(dir)
  const files = packed.files.map((file) => file.path)
  const kilobytes = Math.round(packed.size / 1024)
  console.log(`release/${packed.filename}: ${packed.entryCount} files, ${kilobytes} kB`)
  for (const problem of tarballProblems(packageJson(dir), files)) {
    problems.push(`${packed.filename}: ${problem}`)
  }
}
const [runtime, generator] = PACKAGE_DIRS.map(packageJson)
problems.push(...releaseProblems(runtime, generator))

if (problems.length > 0) {
  // No tarball stays that a later step could take for a release.
  for (const file of readdirSync(releaseDir)) rmSync(path.join(releaseDir, file))
  console.error(`The release tarballs are not as they must be:\n  - ${problems.join('\n  - ')}`)
  process.exit(1)
}
console.log('release tarballs checked: every file package.json names, declarations, no tests')
