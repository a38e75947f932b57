// One row of the compatibility matrix: docs/getting-started.md followed by hand in a project of
// its own, as the clean-project test follows it (its blocks, files and HTTP checks), with the
// row's versions pinned in the page's install commands and every command, the server included,
// run on the row's Node.js (first on PATH: npm, npx and the scripts' `node` all resolve to it).

import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { userEnvironment } from '../install-test/commands.mjs'
import { commands } from '../install-test/doc-blocks.mjs'
import { expect, get } from '../install-test/expect.mjs'
import { forNode, gettingStartedBlocks } from '../install-test/getting-started.mjs'
import { checkMemberType, checkServer } from '../install-test/getting-started-checks.mjs'
import { keepAddon, prebuiltMirror } from '../install-test/prebuilt-mirror.mjs'
import { startServer } from '../install-test/server.mjs'
import { phase } from '../install-test/timings.mjs'
import { followBlocks } from '../install-test/walkthrough.mjs'

/**
 * `command` with each package of `pins` it installs by name given its version
 * (`hono` → `hono@4.13.0`); the names pinned are added to `seen`.
 */
function pinned(command, pins, seen) {
  if (!/^npm install\b/.test(command)) return command
  return command
    .split(' ')
    .map((word) => {
      if (!Object.hasOwn(pins, word)) return word
      seen.add(word)
      return `${word}@${pins[word]}`
    })
    .join(' ')
}

/** The version of `name` installed in `project`. */
function installedVersion(project, name) {
  const manifest = path.join(project, 'node_modules', name, 'package.json')
  return JSON.parse(readFileSync(manifest, 'utf8')).version
}

/** Checks that `project` holds the versions of `pins` (a major alone pins that major). */
function checkInstalled(project, pins, seen, label) {
  for (const [name, pin] of Object.entries(pins)) {
    expect(seen.has(name), `${label}the page's install commands install ${name}`)
    const version = installedVersion(project, name)
    const matches = pin.includes('.') ? version === pin : version.split('.')[0] === pin
    expect(matches, `${label}${name} ${version} installed (pinned: ${pin})`, version)
  }
}

/**
 * Follows the page in `project` (a new folder) with the packed `tarballs`, the row's `pins` and
 * its Node.js `node` (from node-binaries.mjs) and `schemaEngine` standing in for Prisma's native
 * one; the addon better-sqlite3 compiled, when the mirror had none for that Node.js, is kept in
 * `keptDir`. Resolves to the better-sqlite3 version installed.
 */
export async function walkRow(name, project, { tarballs, pins, node, keptDir, schemaEngine }) {
  const label = `${name}: `
  // The page's blocks by hand (its quick path's `scaffold` left out) for the row's Node.js.
  const byHand = forNode(gettingStartedBlocks, Number(node.version.split('.')[0])).filter(
    (block) => block.name !== 'scaffold'
  )
  const installed = byHand.findIndex((block) => block.name === 'install') + 1
  mkdirSync(project)
  const env = {
    PATH: `${node.bin}${path.delimiter}${userEnvironment().PATH}`,
    npm_config_nodedir: node.dir,
    PRISMA_SCHEMA_ENGINE_BINARY: schemaEngine,
  }
  const seen = new Set()
  const follow = (blocks) =>
    followBlocks(blocks, project, {
      tarballs,
      envFor: (step) => (step === 'install' ? { ...env, ...prebuiltMirror.env } : env),
      rewrite: (text) => pinned(text, pins, seen),
      label,
    })
  const served = prebuiltMirror.served
  await follow(byHand.slice(0, installed))
  const mirrored = prebuiltMirror.served > served
  const sqlite = installedVersion(project, 'better-sqlite3')
  const sqliteMajor = Number(sqlite.split('.')[0])
  // better-sqlite3 13 ships its binaries in the package; 12 downloads one or compiles.
  const addon = sqliteMajor >= 13 ? 'shipped in the package' : mirrored ? 'prebuilt' : 'compiled'
  console.log(`better-sqlite3 ${sqlite}: binary ${addon}`)
  const expectedMajor = Number(node.version.split('.')[0]) >= 22 ? 13 : 12
  expect(
    sqliteMajor === expectedMajor,
    `${label}better-sqlite3 ${expectedMajor} installed as the page says for Node.js ${node.version}`,
    sqlite
  )
  keepAddon(project, node.abi, keptDir)
  const [start] = await follow(byHand.slice(installed))

  phase(`${label}versions`)
  checkInstalled(project, pins, seen, label)
  const ran = spawnSync('npm', ['exec', '--', 'node', '-p', 'process.version'], {
    cwd: project,
    env: userEnvironment(env),
    encoding: 'utf8',
  })
  expect(
    ran.stdout.trim() === `v${node.version}`,
    `${label}npm runs the project's commands on Node.js ${node.version}`,
    ran.stdout + ran.stderr
  )

  phase(`${label}tsc --noEmit (strict)`)
  await checkMemberType(project, userEnvironment(env))

  phase(`${label}step start`)
  const server = await startServer(commands(start.body)[0], project, env)
  try {
    phase(`${label}HTTP checks`)
    const first = await get(`${server.base}/books`)
    expect(
      first.status === 200 && first.body['hydra:totalItems'] === 25,
      `${label}GET /api/books: the first served request, the 25 seeded books`,
      first
    )
    await checkServer(server.base)
  } finally {
    server.stop()
  }
  return { betterSqlite3: sqlite }
}
