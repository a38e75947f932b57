// The changeset rule: a report that removes or changes a line of its baseline (baseline.mjs,
// removed-lines.mjs) may break a user's code, so the package needs a pending changeset
// (`.changeset/*.md`, which `npm run version-packages` consumes at each release) that names it
// with a release that may break: `minor` or `major` before 1.0, `major` from 1.0
// (docs/versioning.md).

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import parseChangeset from '@changesets/parse'
import { releaseCommit } from '../release/git.mjs'
import { root } from '../release/release-packages.mjs'
import { baselineOf, reportsAt } from './baseline.mjs'
import { removedLines } from './removed-lines.mjs'

/** The releases that may break a version's users. */
function breakingReleases(version) {
  return version.startsWith('0.') ? ['minor', 'major'] : ['major']
}

/** The release each pending changeset asks for, by package: its files and kinds. */
function pendingReleases() {
  const folder = path.join(root, '.changeset')
  const releases = new Map()
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.md') || file === 'README.md') continue
    const { releases: named } = parseChangeset(readFileSync(path.join(folder, file), 'utf8'))
    for (const { name, type } of named) {
      releases.set(name, [...(releases.get(name) ?? []), { file, type }])
    }
  }
  return releases
}

/** What an entry point's report removes from its baseline: its lines, and which baseline. */
function removalsOf(entry, reportText, release) {
  const baseline = baselineOf(entry.report, release)
  if (baseline === undefined) return undefined
  const removed = removedLines(baseline.text, reportText)
  return removed.length === 0 ? undefined : { removed, since: baseline.since }
}

/**
 * Checks the rule on the reports an entry point has now (`reportText(entry)`); returns the
 * failures, each a message saying what was removed and what changeset is missing.
 */
export function checkChangesetRule(entries, reportText) {
  const pending = pendingReleases()
  const failures = []
  const byPackage = new Map()
  for (const entry of entries)
    byPackage.set(entry.dir, [...(byPackage.get(entry.dir) ?? []), entry])
  for (const [dir, packageEntries] of byPackage) {
    const { packageName, version } = packageEntries[0]
    const release = releaseCommit(dir)
    const breaking = []
    for (const entry of packageEntries) {
      const removals = removalsOf(entry, reportText(entry), release)
      if (removals !== undefined) breaking.push({ entry, ...removals })
    }
    for (const report of reportsAt(release, dir)) {
      if (!existsSync(path.join(root, report))) breaking.push({ gone: report })
    }
    if (breaking.length === 0) continue
    const allowed = breakingReleases(version)
    const named = pending.get(packageName) ?? []
    if (named.some(({ type }) => allowed.includes(type))) continue
    failures.push(ruleMessage({ packageName, version, allowed, named, breaking }))
  }
  return failures
}

/** The failure of one package: what broke, and the changeset to write. */
function ruleMessage({ packageName, version, allowed, named, breaking }) {
  const lines = [
    `${packageName} ${version}: its public API removes or changes what its last release had,`,
    `which may break a user's code, and no pending changeset names it as ${allowed.join(' or ')}` +
      (named.length > 0 ? ` (${named.map((n) => `${n.file}: ${n.type}`).join(', ')})` : '') +
      '.',
  ]
  for (const item of breaking) {
    if (item.gone !== undefined) {
      lines.push(`  ${item.gone}: the entry point of the last release is gone`)
      continue
    }
    lines.push(`  ${item.entry.report}, removed or changed since ${item.since}:`)
    for (const line of item.removed.slice(0, 12)) lines.push(`    - ${line}`)
    if (item.removed.length > 12) lines.push(`    ... and ${item.removed.length - 12} more`)
  }
  lines.push(
    `Run \`npx changeset\`, pick ${packageName} and a ${allowed[0]} release, and say what users`,
    'must change (CONTRIBUTING.md, "The public API"); or keep the old name or type working.'
  )
  return lines.join('\n')
}
