#!/usr/bin/env node
// The release command (`npm run release:pack`): builds the runtime and the generator from a clean
// `dist`, as each one's `prepack` does, then packs them as npm publishes them (`npm pack`) into
// `release/`, and checks what each tarball holds (tarball-contents.mjs). These tarballs are what
// a user installs before the packages are on the registry, what `npm run check:packages` lints
// and what the clean-project test installs (CONTRIBUTING.md, "Releases").
//
// A release commit is packed under its version; anything else under a prerelease of the next
// version that names its commit (`0.3.0-next.1a2b3c4`, release-state.mjs). Each tarball's
// package.json records the commit it was packed from as `gitHead`, the field npm itself writes
// on publishing. Both are written into package.json for the time of `npm pack` only, and the
// file is put back as it was, whatever happens. The build comes before, on the package.json the
// repository holds: turbo's hash of it is that of every other build of the same code (the later
// stages of CI, a clone of the same commit given this cache), which the stamp would change.
//
// Usage: node tools/release/pack.mjs

import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PACKAGE_DIRS, packageJson, releaseDir, root } from './release-packages.mjs'
import { releaseState } from './release-state.mjs'
import { releaseProblems, tarballProblems } from './tarball-contents.mjs'

/** Both packages' build: well above the minutes it takes on a loaded 2-core machine. */
const BUILD_LIMIT_MS = 15 * 60_000

/** Builds both packages from a clean `dist`, as their `prepack` scripts do. */
function build() {
  for (const dir of PACKAGE_DIRS)
    rmSync(path.join(root, dir, 'dist'), { recursive: true, force: true })
  const filters = PACKAGE_DIRS.map((dir) => `--filter=${packageJson(dir).name}`)
  const result = spawnSync(
    'npx',
    ['turbo', 'run', 'build', ...filters, '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: BUILD_LIMIT_MS,
    }
  )
  if (result.status !== 0) throw new Error(`the build: exit ${result.status}`)
}

/** Packs the package of `dir`, built, into `release/`: npm's report of the tarball. */
function pack(dir) {
  const result = spawnSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', releaseDir],
    { cwd: path.join(root, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }
  )
  if (result.status !== 0) throw new Error(`npm pack in ${dir}: exit ${result.status}`)
  return JSON.parse(result.stdout)[0]
}

/** The runtime's name, on which the generator depends. */
const RUNTIME = '@prisma-hydra/runtime'

/**
 * The package.json of `dir` as packed: the `version` of this pack, the commit as `gitHead`, and,
 * for the generator, the caret of that version on the runtime.
 */
function stamped(manifest, { version, commit }) {
  const dependencies = manifest.dependencies && { ...manifest.dependencies }
  if (dependencies?.[RUNTIME] !== undefined) dependencies[RUNTIME] = `^${version}`
  return { ...manifest, version, gitHead: commit, ...(dependencies && { dependencies }) }
}

/** Packs `dir` with its package.json stamped for `state`, then puts the file back as it was. */
function packStamped(dir, state) {
  const file = path.join(root, dir, 'package.json')
  const original = readFileSync(file, 'utf8')
  const manifest = stamped(JSON.parse(original), state)
  const restore = () => writeFileSync(file, original)
  // A signal ends `npm pack` (same process group) and then this process: the file comes back.
  const onSignal = (signal) => {
    restore()
    process.kill(process.pid, signal)
  }
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal)
  try {
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
    return { packed: pack(dir), manifest }
  } finally {
    restore()
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal)
  }
}

const state = await releaseState()
console.log(
  state.released
    ? `packing the release ${state.version} (${state.commit})`
    : `packing ${state.version}, no release: ${state.reason} (${state.commit})`
)

mkdirSync(releaseDir, { recursive: true })
for (const file of readdirSync(releaseDir)) {
  if (file.endsWith('.tgz')) rmSync(path.join(releaseDir, file))
}

build()
const problems = []
const manifests = []
for (const dir of PACKAGE_DIRS) {
  const { packed, manifest } = packStamped(dir, state)
  manifests.push(manifest)
  const files = packed.files.map((file) => file.path)
  const kilobytes = Math.round(packed.size / 1024)
  console.log(`release/${packed.filename}: ${packed.entryCount} files, ${kilobytes} kB`)
  for (const problem of tarballProblems(manifest, files)) {
    problems.push(`${packed.filename}: ${problem}`)
  }
}
// The repository's versions and range, which the stamped ones replace: they must agree too.
for (const pair of [PACKAGE_DIRS.map(packageJson), manifests])
  problems.push(...releaseProblems(...pair))

if (problems.length > 0) {
  // No tarball stays that a later step could take for a release.
  for (const file of readdirSync(releaseDir)) rmSync(path.join(releaseDir, file))
  console.error(`The release tarballs are not as they must be:\n  - ${problems.join('\n  - ')}`)
  process.exit(1)
}
console.log('release tarballs checked: every file package.json names, declarations, no tests')
