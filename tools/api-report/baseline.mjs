// The reports a change is compared with: each entry point's report as the last release had it.
// The last release of a package is the last commit that changed its package.json `version`
// (`npm run version-packages` does, and nothing else does). A report the release did not hold
// yet is compared with its first committed version since the release (the API as it was first
// recorded); a report never committed belongs to a new entry point, and has no baseline.

import { execFileSync } from 'node:child_process'
import { root } from '../release/release-packages.mjs'

/** Runs git in the repository; its output, trimmed. */
function git(...args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }).trim()
}

/** The commit of a package's last release; throws when the history does not reach it. */
export function releaseCommit(dir) {
  const commit = git('log', '-1', '--format=%H', '-G"version":', '--', `${dir}/package.json`)
  if (commit === '') {
    throw new Error(
      `no commit sets ${dir}/package.json's version: the check needs the git history up to the ` +
        'last release (a shallow clone cuts it: clone with the full history)'
    )
  }
  return commit
}

/** A commit's short name, as messages show it. */
function short(commit) {
  return commit.slice(0, 10)
}

/** A file's text at a commit, or undefined when the commit does not hold it. */
function fileAt(commit, file) {
  try {
    return execFileSync('git', ['show', `${commit}:${file}`], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch {
    return undefined
  }
}

/**
 * The baseline of a report (`runtime/api/node.api.md`) since a release commit: its text and
 * which commit it comes from, or undefined for a report never committed.
 */
export function baselineOf(report, release) {
  const atRelease = fileAt(release, report)
  if (atRelease !== undefined)
    return { text: atRelease, since: `the last release (${short(release)})` }
  const added = git('log', '--diff-filter=A', '--format=%H', `${release}..HEAD`, '--', report)
  const first = added.split('\n').filter(Boolean).at(-1)
  if (first === undefined) return undefined
  return {
    text: fileAt(first, report),
    since: `its first report after the last release (${short(first)})`,
  }
}

/** The reports a release commit holds in a package's `api/` folder. */
export function reportsAt(release, dir) {
  return git('ls-tree', '--name-only', release, '--', `${dir}/api/`)
    .split('\n')
    .filter((file) => file.endsWith('.api.md'))
}
