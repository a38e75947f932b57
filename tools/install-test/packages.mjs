// The packages as a user gets them: the release tarballs of `npm run release:pack`
// (tools/release/pack.mjs), standing in for the published names in a walk-through's install
// commands.

import { spawnSync } from 'node:child_process'
import { releaseTarballs } from '../release/release-packages.mjs'
import { COMMAND_LIMIT_MS, root } from './commands.mjs'

/**
 * The release tarballs by package name: made by the release command itself, or, with `packed`,
 * those it already left in `release/` for the packages' current versions (.ci/run packs and
 * checks them in stages of their own before this test).
 */
export function releasePackages(packed) {
  if (!packed) {
    const result = spawnSync('npm', ['run', '--silent', 'release:pack'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: COMMAND_LIMIT_MS,
    })
    if (result.status !== 0) throw new Error(`npm run release:pack: exit ${result.status}`)
  }
  const tarballs = {}
  for (const [name, { tarball }] of Object.entries(releaseTarballs())) {
    tarballs[name] = tarball
    console.log(`${name}: ${tarball}`)
  }
  return tarballs
}

/** `command` with each packed package's name replaced by its tarball. */
export function withTarballs(command, tarballs) {
  let local = command
  for (const [name, tarball] of Object.entries(tarballs)) {
    local = local.replace(new RegExp(`(^|\\s)${name}(?=\\s|$)`, 'g'), `$1${tarball}`)
  }
  return local
}
