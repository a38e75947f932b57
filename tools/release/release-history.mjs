// The releases HEAD's history holds, found without tags: a release is a commit that
// `npm run version-packages` made (release-state.mjs says which commits are), and its CHANGELOGs
// top with its version. A clone of main therefore finds every release main has made, whether or
// not the host kept the tags; where a release's tags exist, they decide (release-state.mjs).

import { fileAt, git } from './git.mjs'
import { PACKAGE_DIRS } from './release-packages.mjs'
import { manifestsAt, notReleased } from './release-state.mjs'

/** A release's version: `0.2.0`, `1.0.0-rc.1`. */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/

/** The version a package's CHANGELOG.md tops with at `commit` (its first `## ` heading). */
function changelogTop(commit, dir) {
  return fileAt(commit, `${dir}/CHANGELOG.md`)?.match(/^## (\S+)\s*$/m)?.[1]
}

/**
 * The releases HEAD reaches, newest first: each one's `version` and `commit`. Only commits that
 * changed the runtime's version can be one; each must be a release (release-state.mjs) whose
 * CHANGELOGs top with its version.
 */
function releases() {
  const changed = git(['log', '--format=%H', '-G"version":', 'HEAD', '--', 'runtime/package.json'])
  const found = []
  for (const commit of changed.split('\n').filter(Boolean)) {
    const { version } = manifestsAt(commit)[0]
    if (notReleased(commit) !== undefined) continue
    if (PACKAGE_DIRS.some((dir) => changelogTop(commit, dir) !== version)) continue
    found.push({ version, commit })
  }
  return found
}

/** The commit of the release `version` in HEAD's history; throws, saying why, when there is none. */
export function releaseCommitOf(version) {
  if (!VERSION.test(version)) {
    throw new Error(`"${version}" is not a version: give one as X.Y.Z, such as 0.2.0`)
  }
  if (git(['rev-parse', '--is-shallow-repository']) === 'true') {
    throw new Error(
      'a shallow clone cannot show which commit released a version: clone with the full history'
    )
  }
  const known = releases()
  const release = known.find((candidate) => candidate.version === version)
  if (release !== undefined) return release.commit
  const listed = known.map((candidate) => candidate.version).join(', ') || 'none'
  throw new Error(`no release ${version} in the history of HEAD; the releases it holds: ${listed}`)
}
