// A release's own tree, checked out apart from the work tree (`git worktree add --detach`), so that
// packing an older release leaves the clone as it was. Its builds need the dependencies its own
// package-lock.json names: where they are those the clone's package-lock.json names (every
// registry package at the same version and integrity, which `npm ci` installed), its
// node_modules links to the clone's; otherwise npm installs, from its lock file, the published
// packages' dependencies and the root's (turbo, TypeScript), without install scripts (the
// packages' builds run none of them). A tree that serves the example app (bench/budget-load.ts)
// needs every workspace's dependencies: it links the clone's wherever they hold what its own lock
// file names (releaseWorktree's `example`), and installs them all otherwise.

import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileAt, git } from './git.mjs'
import { PACKAGE_DIRS, root } from './release-packages.mjs'

/** npm's install of a release's lock file: minutes on a loaded machine, from npm's cache. */
const INSTALL_LIMIT_MS = 15 * 60_000

/**
 * The registry packages a lock file puts at the root's node_modules, each path with its version
 * and integrity; undefined when it puts one in a published package's own node_modules, which
 * linking the root's would not give the tree.
 */
function registryPackages(lockText) {
  const { packages = {} } = JSON.parse(lockText)
  const keys = Object.keys(packages)
  if (keys.some((key) => PACKAGE_DIRS.some((dir) => key.startsWith(`${dir}/node_modules/`))))
    return undefined
  return keys
    .filter((key) => key.startsWith('node_modules/') && packages[key].link !== true)
    .map((key) => `${key}@${packages[key].version} ${packages[key].integrity ?? ''}`)
    .sort()
    .join('\n')
}

/** A lock file's registry packages below the root's node_modules, by path. */
function lockedPackages(lockText) {
  const { packages = {} } = JSON.parse(lockText)
  return new Map(
    Object.entries(packages).filter(
      ([key, entry]) => key.startsWith('node_modules/') && entry.link !== true
    )
  )
}

/**
 * Whether this clone's node_modules give `commit`'s tree, linked, every package its lock file
 * names: each registry package below its root's node_modules at the same path, version and
 * integrity in the clone's lock file, and none that the clone installed below one of them
 * (`node_modules/a/node_modules/b`) left out of the release's, which would stand in for the
 * root's `b` for `a`. The clone's other packages the tree's code does not import. A workspace's
 * own node_modules is not linked: a release whose lock file puts packages in a published
 * package's cannot be; the example's (tools the server does not load, such as
 * openapi-typescript) stay out of the tree.
 */
function contained(commit) {
  const lockText = fileAt(commit, 'package-lock.json') ?? '{}'
  if (registryPackages(lockText) === undefined) return false
  const wanted = lockedPackages(lockText)
  const clone = lockedPackages(fileAt('HEAD', 'package-lock.json') ?? '{}')
  for (const [key, entry] of wanted) {
    const held = clone.get(key)
    if (held?.version !== entry.version || held.integrity !== entry.integrity) return false
  }
  return [...clone.keys()].every((key) => {
    if (wanted.has(key)) return true
    const parent = key.slice(0, key.lastIndexOf('/node_modules/'))
    return !wanted.has(parent) || !existsSync(path.join(root, key))
  })
}

/**
 * Links the node_modules of `tree`, a checkout of this repository, to those of `from` (default
 * this clone): every package but the workspace's own, which link to the tree's folders. The bins
 * (node_modules/.bin) link as the clone's do, from the tree's node_modules, so that a workspace's
 * bin (`prisma-hydra`, which the example's `prisma generate` runs) is the tree's code. git
 * ignores node_modules, so the tree stays clean.
 */
export function linkNodeModules(tree, from = root) {
  const modules = path.join(tree, 'node_modules')
  mkdirSync(path.join(modules, '@prisma-hydra'), { recursive: true })
  mkdirSync(path.join(modules, '.bin'))
  for (const entry of readdirSync(path.join(from, 'node_modules'))) {
    if (entry === '@prisma-hydra' || entry === '.bin') continue
    symlinkSync(path.join(from, 'node_modules', entry), path.join(modules, entry))
  }
  const bins = path.join(from, 'node_modules', '.bin')
  for (const bin of existsSync(bins) ? readdirSync(bins) : []) {
    symlinkSync(readlinkSync(path.join(bins, bin)), path.join(modules, '.bin', bin))
  }
  const scope = path.join(from, 'node_modules', '@prisma-hydra')
  for (const name of readdirSync(scope)) {
    const workspace = path.relative(from, path.resolve(scope, readlinkSync(path.join(scope, name))))
    symlinkSync(path.join(tree, workspace), path.join(modules, '@prisma-hydra', name))
  }
}

/**
 * npm's install of the tree's dependencies from its lock file, without install scripts: the
 * published packages' and the root's, or with `example` every workspace's, and then the one
 * install script the example app's server needs, better-sqlite3's native module.
 */
function install(tree, example) {
  const options = { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'], timeout: INSTALL_LIMIT_MS }
  const workspaces = example
    ? []
    : [...PACKAGE_DIRS.flatMap((dir) => ['--workspace', dir]), '--include-workspace-root']
  const flags = ['--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']
  execFileSync('npm', ['ci', ...workspaces, ...flags], options)
  if (example) execFileSync('npm', ['rebuild', 'better-sqlite3', '--loglevel=error'], options)
}

/**
 * Checks `commit` out apart, its dependencies installed: the tree's folder, how they were
 * installed (`linked` or `installed`), and `remove()`, which takes the tree away. With `example`,
 * the example app's dependencies too, for a tree that serves it.
 */
export function releaseWorktree(commit, { example = false } = {}) {
  const tree = path.join(mkdtempSync(path.join(tmpdir(), 'prisma-hydra-release-')), 'tree')
  git(['worktree', 'add', '--detach', '--quiet', tree, commit])
  let removed = false
  const remove = () => {
    if (removed) return
    removed = true
    try {
      git(['worktree', 'remove', '--force', tree])
    } finally {
      rmSync(path.dirname(tree), { recursive: true, force: true })
      git(['worktree', 'prune'])
    }
  }
  try {
    const lockText = fileAt(commit, 'package-lock.json') ?? '{}'
    // The clone's node_modules are taken for those its package-lock.json names (`npm ci`).
    const wanted = registryPackages(lockText)
    const same =
      wanted !== undefined &&
      wanted === registryPackages(fileAt('HEAD', 'package-lock.json') ?? '{}')
    const linked = same || (example && contained(commit))
    if (linked) linkNodeModules(tree)
    else install(tree, example)
    return { tree, dependencies: linked ? 'linked' : 'installed', remove }
  } catch (error) {
    remove()
    throw error
  }
}
