// A release's own tree, checked out apart from the work tree (`git worktree add --detach`), so that
// packing an older release leaves the clone as it was. Its builds need the dependencies its own
// package-lock.json names: where they are those the clone's package-lock.json names (every
// registry package at the same version and integrity, which `npm ci` installed), its
// node_modules links to the clone's; otherwise npm installs, from its lock file, the published
// packages' dependencies and the root's (turbo, TypeScript), without install scripts (the
// packages' builds run none of them).

import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs'
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

/**
 * Links the node_modules of `tree`, a checkout of this repository, to those of `from` (default
 * this clone): every package but the workspace's own, which link to the tree's folders. git
 * ignores node_modules, so the tree stays clean.
 */
export function linkNodeModules(tree, from = root) {
  const modules = path.join(tree, 'node_modules')
  mkdirSync(path.join(modules, '@prisma-hydra'), { recursive: true })
  for (const entry of readdirSync(path.join(from, 'node_modules'))) {
    if (entry === '@prisma-hydra') continue
    symlinkSync(path.join(from, 'node_modules', entry), path.join(modules, entry))
  }
  const scope = path.join(from, 'node_modules', '@prisma-hydra')
  for (const name of readdirSync(scope)) {
    const workspace = path.relative(from, path.resolve(scope, readlinkSync(path.join(scope, name))))
    symlinkSync(path.join(tree, workspace), path.join(modules, '@prisma-hydra', name))
  }
}

/**
 * Checks `commit` out apart, its dependencies installed: the tree's folder, how they were
 * installed (`linked` or `installed`), and `remove()`, which takes the tree away.
 */
export function releaseWorktree(commit) {
  const tree = path.join(mkdtempSync(path.join(tmpdir(), 'prisma-hydra-release-')), 'tree')
  git(['worktree', 'add', '--detach', '--quiet', tree, commit])
  const remove = () => {
    try {
      git(['worktree', 'remove', '--force', tree])
    } finally {
      rmSync(path.dirname(tree), { recursive: true, force: true })
      git(['worktree', 'prune'])
    }
  }
  try {
    // The clone's node_modules are taken for those its package-lock.json names (`npm ci`).
    const wanted = registryPackages(fileAt(commit, 'package-lock.json') ?? '{}')
    const same =
      wanted !== undefined &&
      wanted === registryPackages(fileAt('HEAD', 'package-lock.json') ?? '{}')
    if (same) linkNodeModules(tree)
    else {
      // The packages' own dependencies and the root's tools (turbo, TypeScript): not the
      // example's, which the build does not read (minutes more of downloads).
      const workspaces = PACKAGE_DIRS.flatMap((dir) => ['--workspace', dir])
      const flags = ['--include-workspace-root', '--ignore-scripts', '--no-audit', '--no-fund']
      execFileSync('npm', ['ci', ...workspaces, ...flags, '--loglevel=error'], {
        cwd: tree,
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: INSTALL_LIMIT_MS,
      })
    }
    return { tree, dependencies: same ? 'linked' : 'installed', remove }
  } catch (error) {
    remove()
    throw error
  }
}
