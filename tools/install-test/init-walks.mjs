// docs/getting-started.md's quick path, `npx prisma-hydra init`, followed in two projects of their
// own: a folder holding npm's package.json alone, and a project Prisma's `npx prisma init` made
// (SQLite; with dotenv, which the prisma7.config.ts it writes imports, as that file says). Each
// takes the page's steps, none of its files and not the scripts set by hand, then starts the
// server: it is checked as getting-started's, and must answer as the server of that page's
// files did. The time from the dependencies installed to the first served request is printed.

import { mkdirSync } from 'node:fs'
import { run, userEnvironment } from './commands.mjs'
import { commands } from './doc-blocks.mjs'
import { expect, get } from './expect.mjs'
import { forNode, gettingStartedBlocks } from './getting-started.mjs'
import { checkServer } from './getting-started-checks.mjs'
import { checkSameAnswers } from './node-answers.mjs'
import { prebuiltMirror } from './prebuilt-mirror.mjs'
import { startServer } from './server.mjs'
import { milestone, phase } from './timings.mjs'
import { followBlocks } from './walkthrough.mjs'

/** The quick path: the page's steps, but the scripts its by-hand path sets. */
const quickPath = forNode(gettingStartedBlocks).filter(
  (block) => block.kind === 'step' && block.name !== 'scripts'
)
const installed = quickPath.findIndex((block) => block.name === 'install') + 1

/** What makes the folder a Prisma project first: Prisma's command, and what its config imports. */
const PRISMA_INIT = [
  'npx prisma init --datasource-provider sqlite --no-skills',
  'npm install --save-dev dotenv',
]

/** The target of the time from the dependencies installed to the first served request. */
const TARGET_MS = 120_000

/**
 * Follows the quick path in `project` (a new folder) with the packed `tarballs`, in a project
 * `npx prisma init` made first when `prismaProject`; its server must answer `nodeAnswers`.
 */
export async function walkInit(project, tarballs, nodeAnswers, { prismaProject }) {
  const label = prismaProject ? 'init in a Prisma project: ' : 'init in an empty folder: '
  mkdirSync(project)
  await followBlocks(quickPath.slice(0, installed), project, {
    tarballs,
    envFor: (step) => (step === 'install' ? prebuiltMirror.env : {}),
    label,
  })
  if (prismaProject) {
    phase(`${label}npx prisma init`)
    for (const command of PRISMA_INIT) await run(command, project, userEnvironment())
  }
  const dependenciesInstalled = Date.now()
  const [start] = await followBlocks(quickPath.slice(installed), project, { tarballs, label })
  phase(`${label}step start`)
  const server = await startServer(commands(start.body)[0], project)
  try {
    const first = await get(`${server.base}/books`)
    const elapsed = Date.now() - dependenciesInstalled
    expect(
      first.status === 200 && first.body['hydra:totalItems'] === 25,
      `${label}GET /api/books: the first served request, the 25 seeded books`,
      first
    )
    milestone(
      `${label.slice(0, -2)}: dependencies installed to first served request`,
      elapsed,
      TARGET_MS
    )
    phase(`${label}HTTP checks`)
    await checkServer(server.base)
    await checkSameAnswers(label.slice(0, -2), server.base, nodeAnswers)
  } finally {
    server.stop()
  }
}
