// The reports a change is compared with: each entry point's report as the last release had it.
// The last release of a package is the last commit that changed its package.json `version`
// (`npm run version-packages` does, and nothing else does). A report the release did not hold
// yet is compared with its first committed version since the release (the API as it was first
// recorded); a report never committed belongs to a new entry point, and has no baseline.

import { fileAt, git } from '../release/git.mjs'

/** A commit's short name, as messages show it. */
function short(commit) {
  return commit.slice(0, 10)
}

/**
 * The baseline of a report (`runtime/api/node.api.md`) since a release commit: its text and
 * which commit it comes from, or undefined for a report never committed.
 */
export function baselineOf(report, release) {
  const atRelease = fileAt(release, report)
  if (atRelease !== undefined)
    return { text: atRelease, since: `the last release (${short(release)})` }
  const added = git(['log', '--diff-filter=A', '--format=%H', `${release}..HEAD`, '--', report])
  const first = added.split('\n').filter(Boolean).at(-1)
  if (first === undefined) return undefined
  return {
    text: fileAt(first, report),
    since: `its first report after the last release (${short(first)})`,
  }
}

/** The reports a release commit holds in a package's `api/` folder. */
export function reportsAt(release, dir) {
  return git(['ls-tree', '--name-only', release, '--', `${dir}/api/`])
    .split('\n')
    .filter((file) => file.endsWith('.api.md'))
}
