// Which version a commit is: a release, or code after (or beside) one. A release is a commit
// that `npm run version-packages` made: it changed the packages' `version`, and it left no
// changeset pending (it consumed them). Its tags (`@prisma-hydra/runtime@0.2.0`,
// `@prisma-hydra/generator@0.2.0`, tag.mjs) are not needed to tell it, but where they exist they
// decide: a tag of the version naming another commit makes this one no release. Anything else,
// uncommitted changes included, is packed as a prerelease of the next version, the one the
// pending changesets make (`0.3.0-next.1a2b3c4`), so that no released number names other code.

import getReleasePlan from '@changesets/get-release-plan'
import { commitOf, fileAt, git, releaseCommit } from './git.mjs'
import { PACKAGE_DIRS, packageJson, root } from './release-packages.mjs'

/** The tag of a package's release: changesets' own form, which `changeset publish` creates too. */
export function releaseTag({ name, version }) {
  return `${name}@${version}`
}

/** The changesets pending at `commit`: its `.changeset/*.md` files, which a release consumes. */
function pendingAt(commit) {
  return git(['ls-tree', '--name-only', commit, '--', '.changeset/'])
    .split('\n')
    .filter((file) => file.endsWith('.md') && file !== '.changeset/README.md')
}

/** The packages' package.json at `commit`, the runtime first. */
export function manifestsAt(commit) {
  return PACKAGE_DIRS.map((dir) => JSON.parse(fileAt(commit, `${dir}/package.json`) ?? '{}'))
}

/**
 * Why the commit `ref` names is not the release of its packages' version; undefined when it is. Its tags
 * decide where they exist; without them, the history (which a shallow clone cuts).
 */
export function notReleased(ref) {
  const commit = commitOf(ref)
  if (commit === undefined) return `${ref} is no commit`
  const manifests = manifestsAt(commit)
  const { version } = manifests[0]
  if (manifests.some((manifest) => manifest.version !== version))
    return 'the packages have different versions'
  const tagged = manifests.map((manifest) => [
    releaseTag(manifest),
    commitOf(`refs/tags/${releaseTag(manifest)}`),
  ])
  const elsewhere = tagged.find(([, named]) => named !== undefined && named !== commit)
  if (elsewhere) return `the tag ${elsewhere[0]} names ${elsewhere[1].slice(0, 10)}`
  if (tagged.some(([, named]) => named === commit)) return undefined
  if (git(['rev-parse', '--is-shallow-repository']) === 'true')
    return `a shallow clone without the tag ${tagged[0][0]} cannot show which commit released ${version}`
  const pending = pendingAt(commit)
  if (pending.length > 0) return `${pending.length} changesets are pending`
  for (const dir of PACKAGE_DIRS) {
    const released = releaseCommit(dir, commit)
    if (released !== commit) return `${version} was released by ${released.slice(0, 10)}`
  }
  return undefined
}

/** A commit as prerelease identifiers show it: `1a2b3c4`; `g` before one of digits alone. */
function commitIdentifier(commit) {
  const short = git(['rev-parse', '--short=7', commit])
  // An identifier of digits alone is a number to semver, which forbids a leading zero.
  return /^\d+$/.test(short) ? `g${short}` : short
}

/** The version the pending changesets make of `version` (a patch after it when none is). */
async function nextVersion(version) {
  const plan = await getReleasePlan(root)
  const { name } = packageJson(PACKAGE_DIRS[0])
  const release = plan.releases.find((candidate) => candidate.name === name)
  if (release !== undefined && release.type !== 'none') return release.newVersion
  const [major, minor, patch] = version.split('.').map(Number)
  return `${major}.${minor}.${patch + 1}`
}

/**
 * The work tree's release state: `commit` (HEAD), whether it is the release of the packages'
 * version (`released`), the `version` to pack it under (that one, or the prerelease
 * `<next>-next.<commit>`, with `.dirty` when the work tree has uncommitted changes) and, when it
 * is no release, `reason`.
 */
export async function releaseState() {
  const commit = commitOf('HEAD')
  if (commit === undefined) throw new Error(`${root} is no git repository with a commit`)
  const { version } = packageJson(PACKAGE_DIRS[0])
  const dirty = git(['status', '--porcelain']) !== ''
  const reason = dirty ? 'the work tree has uncommitted changes' : notReleased(commit)
  if (reason === undefined) return { commit, released: true, version }
  const next = await nextVersion(version)
  const suffix = dirty ? '.dirty' : ''
  return {
    commit,
    released: false,
    version: `${next}-next.${commitIdentifier(commit)}${suffix}`,
    reason,
  }
}
