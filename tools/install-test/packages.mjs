// The packages as a user gets them: the release tarballs of `npm run release:pack`
// (tools/release/pack.mjs), standing in for the published names in a walk-through's install
// commands.

import { spawnSync } from 'node:child_process'
import { releaseTarballs } from '../release/release-packages.mjs'
import { COMMAND_LIMIT_MS, root } from './commands.mjs'

/**
 * The release tarballs by package name (release-packages.mjs: each one's path and the file name
 * the docs give it): made by the release command itself, or, with `packed`, those it already left
 * in `release/` (.ci/run packs and checks them in stages of their own before this test).
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
  const tarballs = releaseTarballs()
  for (const [name, { tarball }] of Object.entries(tarballs)) console.log(`${name}: ${tarball}`)
  return tarballs
}

/**
 * `command` with each release tarball it names (`../prisma-hydra/release/prisma-hydra-runtime-0.2.0.tgz`,
 * as docs/getting-started.md installs them) replaced by the one packed here: the release's, or a
 * prerelease after it (`0.3.0-next.1a2b3c4`, tools/release/release-state.mjs) standing in for it.
 * The names must be those of the packages' version, the last release: a doc naming another
 * version fails here, as it would for a user of that release. Package names are left alone: those
 * install from the npm registry, as a user's would.
 */
export function withTarballs(command, tarballs) {
  const fileName = (file) => file.slice(file.lastIndexOf('/') + 1)
  const packed = new Map(Object.values(tarballs).map((entry) => [entry.documented, entry.tarball]))
  return command.replace(
    /(?<=^|\s)\S*prisma-hydra-(?:runtime|generator)-\S*\.tgz(?=\s|$)/g,
    (named) => {
      const tarball = packed.get(fileName(named))
      if (!tarball)
        throw new Error(
          `${command}: ${fileName(named)} is not a tarball of this release (${[...packed.keys()].join(', ')}): the doc names another version`
        )
      return tarball
    }
  )
}
