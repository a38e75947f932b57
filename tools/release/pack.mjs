#!/usr/bin/env node
// The release command (`npm run release:pack`): builds the runtime and the generator from a clean
// `dist`, as each one's `prepack` does, then packs them as npm publishes them (`npm pack`) into
// `release/`, and checks what each tarball holds (tarball-contents.mjs). These tarballs are what
// a user installs before the packages are on the registry, what `npm run check:packages` lints
// and what the clean-project test installs (CONTRIBUTING.md, "Releases").
//
// Without a version, it packs the work tree: a release commit under its version, anything else
// under a prerelease of the next version that names its commit (`0.3.0-next.1a2b3c4`,
// release-state.mjs). Given a version (`npm run release:pack -- 0.2.0`), it finds that release's
// commit in HEAD's history, tags or none (release-history.mjs), and packs it from a tree of its
// own (release-worktree.mjs), leaving the work tree as it was.
//
// Each tarball's package.json records the commit it was packed from as `gitHead`, the field npm
// itself writes on publishing, read back from every tarball before the command succeeds. The
// version and `gitHead` are written into package.json for the time of `npm pack` only, and the
// file is put back as it was, whatever happens. The build comes before, on the package.json the
// repository holds: turbo's hash of it is that of every other build of the same code (the later
// stages of CI, a clone of the same commit given this cache), which the stamp would change.
//
// Usage: node tools/release/pack.mjs [<version>]

import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { constants } from 'node:os'
import path from 'node:path'
import { git } from './git.mjs'
import { releaseCommitOf } from './release-history.mjs'
import { PACKAGE_DIRS, releaseDir, root } from './release-packages.mjs'
import { releaseState } from './release-state.mjs'
import { releaseWorktree } from './release-worktree.mjs'
import { releaseProblems, tarballProblems } from './tarball-contents.mjs'

/** Both packages' build: well above the minutes it takes on a loaded 2-core machine. */
const BUILD_LIMIT_MS = 15 * 60_000

/**
 * A signal (Ctrl-C, SIGTERM) received meanwhile. It ends the child running (same process group),
 * but this process only notes it: `spawnSync` holds the event loop, and the work tree's files,
 * a release's tree and `release/` are put right before this process ends too.
 */
let signalled
const noteSignal = (signal) => {
  signalled = signal
}
process.on('SIGINT', noteSignal).on('SIGTERM', noteSignal)

/**
 * Throws unless the child `what` ran ended well and no signal came meanwhile. A child a signal
 * ended is taken for a signal to this process too, whose handler has not run yet.
 */
function succeeded(result, what) {
  signalled ??= result.signal ?? undefined
  if (signalled) throw new Error(`${what}: ended by ${signalled}`)
  if (result.status !== 0) throw new Error(`${what}: exit ${result.status}`)
}

/** A package's package.json in `tree`. */
function manifestIn(tree, dir) {
  return JSON.parse(readFileSync(path.join(tree, dir, 'package.json'), 'utf8'))
}

/**
 * Builds both packages of `tree` from a clean `dist`, as their `prepack` scripts do. The work
 * tree's build uses this clone's turbo cache (a hit where the code was built already); a
 * release's tree is built with an empty cache of its own, since an older release's turbo.json
 * may not name every output its build writes (0.2.0's leaves out the sources `prebuild` writes,
 * so a hit would pack a runtime without them).
 */
function build(tree) {
  for (const dir of PACKAGE_DIRS)
    rmSync(path.join(tree, dir, 'dist'), { recursive: true, force: true })
  const filters = PACKAGE_DIRS.map((dir) => `--filter=${manifestIn(tree, dir).name}`)
  const result = spawnSync(
    'npx',
    ['turbo', 'run', 'build', ...filters, '--output-logs=errors-only'],
    {
      cwd: tree,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: BUILD_LIMIT_MS,
      env: { ...process.env, TURBO_CACHE_DIR: path.join(tree, '.turbo/cache') },
    }
  )
  succeeded(result, 'the build')
}

/** Packs the package of `dir` in `tree`, built, into `release/`: npm's report of the tarball. */
function pack(tree, dir) {
  const result = spawnSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', releaseDir],
    { cwd: path.join(tree, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }
  )
  succeeded(result, `npm pack in ${dir}`)
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

/** Packs `dir` of `tree` with its package.json stamped for `state`, then puts the file back. */
function packStamped(tree, dir, state) {
  const file = path.join(tree, dir, 'package.json')
  const original = readFileSync(file, 'utf8')
  const manifest = stamped(JSON.parse(original), state)
  try {
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
    return { packed: pack(tree, dir), manifest }
  } finally {
    writeFileSync(file, original)
  }
}

/** The problems of a tarball's package.json as read back from it, against `state`. */
function packedProblems(filename, { version, commit }) {
  const text = execFileSync('tar', [
    '-xOzf',
    path.join(releaseDir, filename),
    'package/package.json',
  ])
  const packed = JSON.parse(text.toString())
  const problems = []
  if (packed.version !== version) problems.push(`version ${packed.version}, not ${version}`)
  if (packed.gitHead !== commit) problems.push(`gitHead ${packed.gitHead}, not ${commit}`)
  return problems
}

/** Builds and packs both packages of `tree` as `state` says; the tarballs' problems. */
function packTree(tree, state) {
  const problems = []
  // The tree must be the commit the tarballs will name, at the version they will bear.
  const head = git(['rev-parse', 'HEAD'], tree)
  if (head !== state.commit) problems.push(`the tree is ${head}, not ${state.commit}`)
  const { version } = manifestIn(tree, PACKAGE_DIRS[0])
  if (state.released && version !== state.version)
    problems.push(`the tree's version is ${version}, not ${state.version}`)
  if (problems.length > 0) return problems
  const before = git(['status', '--porcelain'], tree)
  build(tree)
  const manifests = []
  for (const dir of PACKAGE_DIRS) {
    const { packed, manifest } = packStamped(tree, dir, state)
    manifests.push(manifest)
    const files = packed.files.map((file) => file.path)
    const kilobytes = Math.round(packed.size / 1024)
    console.log(`release/${packed.filename}: ${packed.entryCount} files, ${kilobytes} kB`)
    for (const problem of [
      ...tarballProblems(manifest, files),
      ...packedProblems(packed.filename, state),
    ]) {
      problems.push(`${packed.filename}: ${problem}`)
    }
  }
  // The repository's versions and range, which the stamped ones replace: they must agree too.
  const committed = PACKAGE_DIRS.map((dir) => manifestIn(tree, dir))
  for (const pair of [committed, manifests]) problems.push(...releaseProblems(...pair))
  // The build must leave the tree's files as they were, or the tarballs hold other code.
  const after = git(['status', '--porcelain'], tree)
  if (after !== before) problems.push(`the build changed the tree:\n${after}`)
  return problems
}

/** What to pack: the work tree's state, or the release `version` asked for, from its commit. */
async function target(version) {
  if (version === undefined) return { tree: root, state: await releaseState() }
  const commit = releaseCommitOf(version)
  const worktree = releaseWorktree(commit)
  console.log(`the release ${version} is ${commit}: its dependencies ${worktree.dependencies}`)
  return { tree: worktree.tree, state: { commit, released: true, version }, worktree }
}

/** Removes the tarballs of `release/`, so that none a later step could take for a release stays. */
function clearTarballs() {
  for (const file of readdirSync(releaseDir)) {
    if (file.endsWith('.tgz')) rmSync(path.join(releaseDir, file))
  }
}

let worktree
let packing = false
let failed = true
try {
  const { tree, state, worktree: made } = await target(process.argv[2])
  worktree = made
  console.log(
    state.released
      ? `packing the release ${state.version} (${state.commit})`
      : `packing ${state.version}, no release: ${state.reason} (${state.commit})`
  )
  mkdirSync(releaseDir, { recursive: true })
  packing = true
  clearTarballs()
  const problems = packTree(tree, state)
  if (problems.length > 0) {
    console.error(`The release tarballs are not as they must be:\n  - ${problems.join('\n  - ')}`)
  } else {
    failed = false
    console.log(
      'release tarballs checked: every file package.json names, declarations, no tests, ' +
        'the version and gitHead of each'
    )
  }
} catch (error) {
  console.error(error.message)
} finally {
  if (failed && packing) clearTarballs()
  worktree?.remove()
}
// A signal ends this process as the shell reports one (128 + its number), once all is put right.
process.exit(signalled ? 128 + constants.signals[signalled] : failed ? 1 : 0)
