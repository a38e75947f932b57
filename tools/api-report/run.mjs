#!/usr/bin/env node
// The public API reports (`npm run api:check`, a stage of .ci/run; `npm run api:update`): API
// Extractor over the built `.d.ts` of every entry point of both packages (entry-points.mjs),
// compared with the reports committed in `runtime/api/` and `generator/api/`, then the changeset
// rule (changeset-rule.mjs) on the reports. The packages must be built first (the npm scripts
// build them through turbo).
//
// Usage: node tools/api-report/run.mjs check|update

import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { root } from '../release/release-packages.mjs'
import { checkChangesetRule } from './changeset-rule.mjs'
import { entryPoints } from './entry-points.mjs'
import { extract, tempFolder } from './extract.mjs'

const mode = process.argv[2]
if (mode !== 'check' && mode !== 'update') {
  console.error('usage: node tools/api-report/run.mjs check|update')
  process.exit(2)
}
const update = mode === 'update'

const entries = entryPoints()
const missing = entries.filter((entry) => !existsSync(entry.dts))
if (missing.length > 0) {
  console.error(`Not built: ${missing.map((e) => path.relative(root, e.dts)).join(', ')}`)
  console.error('Build the packages first: `npx turbo run build`.')
  process.exit(1)
}

/** Where API Extractor wrote the report it computed (in both modes; `update` copies it too). */
function computedPath(entry) {
  return path.join(tempFolder, entry.dir, `${entry.name}.api.md`)
}

/** The first lines of the difference between a committed report and the computed one. */
function shortDiff(entry) {
  const { stdout } = spawnSync(
    'git',
    ['diff', '--no-index', '--no-color', '-U1', '--', entry.report, computedPath(entry)],
    { cwd: root, encoding: 'utf8' }
  )
  const lines = stdout.trimEnd().split('\n').slice(4)
  const shown = lines.slice(0, 30).map((line) => `    ${line}`)
  if (lines.length > 30) shown.push(`    ... (${lines.length - 30} more lines)`)
  return shown.join('\n')
}

let failed = false
const changed = []
for (const entry of entries) {
  const { ok, changed: differs } = extract(entry, { update })
  if (!ok) failed = true
  if (differs) changed.push(entry)
}
if (failed) {
  console.error('API Extractor reported errors (above).')
  process.exit(1)
}

if (update) {
  for (const entry of changed) console.log(`updated ${entry.report}`)
} else if (changed.length > 0) {
  console.error(
    [
      'The public API changed: these reports differ from what the built .d.ts declare',
      ...changed.map((entry) => `  ${entry.report}:\n${shortDiff(entry)}`),
      'If the change is meant, run `npm run api:update` and commit the reports with it, and a',
      'changeset if users can see it (CONTRIBUTING.md, "The public API"). If not, undo the change.',
    ].join('\n')
  )
  process.exit(1)
}

const failures = checkChangesetRule(entries, (entry) => readFileSync(computedPath(entry), 'utf8'))
for (const failure of failures) console.error(`\n${failure}`)
if (failures.length > 0 && !update) process.exit(1)
if (failures.length > 0)
  console.error('\n`npm run api:check` fails until that changeset is written.')
if (!update) {
  console.log(`${entries.length} API reports match the built .d.ts; the changeset rule holds.`)
}
