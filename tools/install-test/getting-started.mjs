// docs/getting-started.md followed by hand in a project of its own (SQLite, the API under /api):
// its blocks written and run but the quick path's `prisma-hydra init` (init-walks.mjs takes it),
// the member type checked, the server started and checked over HTTP and over raw sockets, its
// answers recorded for other runtimes and init's projects, and the installed packages' source
// maps resolved.

import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { root } from './commands.mjs'
import { commands, walkthroughBlocks } from './doc-blocks.mjs'
import { expect } from './expect.mjs'
import { checkMemberType, checkServer } from './getting-started-checks.mjs'
import { answersOf } from './node-answers.mjs'
import { prebuiltMirror } from './prebuilt-mirror.mjs'
import { checkRawRequests } from './raw-requests.mjs'
import { startServer } from './server.mjs'
import { checkSourceMaps } from './source-maps.mjs'
import { phase } from './timings.mjs'
import { followBlocks } from './walkthrough.mjs'

const doc = path.join(root, 'docs/getting-started.md')
/** The page's marked blocks, both paths: the quick one's `scaffold` step, the other's files. */
export const gettingStartedBlocks = walkthroughBlocks(
  doc,
  [
    'init',
    'node22',
    'install',
    'scaffold',
    'scripts',
    'generate',
    'create-tables',
    'build',
    'seed',
    'start',
  ],
  [
    'prisma/schema.prisma',
    'prisma.config.ts',
    'src/prisma.ts',
    'src/server.ts',
    'src/seed.ts',
    'tsconfig.json',
  ]
)

/**
 * The page's `blocks` a user on Node.js `major` follows: the `node22` step (better-sqlite3 13,
 * which needs Node.js 22) only from 22 on.
 */
export function forNode(blocks, major = Number(process.versions.node.split('.')[0])) {
  return blocks.filter((block) => block.name !== 'node22' || major >= 22)
}

/**
 * Follows the page in `project` (a new folder) with the packed `tarballs`; resolves to its
 * server's answers that other runtimes must give too (node-answers.mjs).
 */
export async function walkGettingStarted(project, tarballs) {
  mkdirSync(project)
  const byHand = forNode(gettingStartedBlocks).filter((block) => block.name !== 'scaffold')
  const [start] = await followBlocks(byHand, project, {
    tarballs,
    envFor: (step) => (step === 'install' ? prebuiltMirror.env : {}),
  })

  phase('types a user sees')
  await checkMemberType(project)

  phase('step start')
  const [startCommand] = commands(start.body)
  const server = await startServer(startCommand, project)
  try {
    phase('HTTP checks')
    await checkServer(server.base)
    await checkRawRequests(server.base, expect)
    const nodeAnswers = await answersOf(server.base)

    phase('source maps of the installed packages')
    checkSourceMaps(path.join(project, 'node_modules/@prisma-hydra'))
    return nodeAnswers
  } finally {
    server.stop()
  }
}
