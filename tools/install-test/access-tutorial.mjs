// docs/tutorial-access.md followed in a project of its own, on a database of its own on the
// PostgreSQL server of DATABASE_URL_POSTGRES: its blocks written and run (the page's DATABASE_URL
// and JWT_SECRET given to every command, and `http://localhost:3000` read as the server's real
// address once it listens), then what the page promises checked over HTTP and with tsc.

import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { createScratchDatabase } from '../prisma-offline/src/scratch-database.mjs'
import { checkAccess } from './access-checks.mjs'
import { checkAccessTypes } from './access-types.mjs'
import { root, userEnvironment } from './commands.mjs'
import { commands, walkthroughBlocks } from './doc-blocks.mjs'
import { startServer } from './server.mjs'
import { phase } from './timings.mjs'
import { followBlocks } from './walkthrough.mjs'

const doc = path.join(root, 'docs/tutorial-access.md')
/** The start of its phases' names, which getting-started.md's steps share. */
const label = 'access: '
const blocks = walkthroughBlocks(
  doc,
  ['init', 'install', 'generate', 'create-tables', 'build', 'start', 'client-types', 'clients'],
  [
    'prisma/schema.prisma',
    'prisma.config.ts',
    'src/prisma.ts',
    'src/auth.ts',
    'src/token.ts',
    'src/access.ts',
    'src/app.ts',
    'src/server.ts',
    'src/seed.ts',
    'tsconfig.json',
    'src/hc-client.ts',
    'src/openapi-client.ts',
  ]
)

/** A token `dist/token.js` signs with `secret`. */
function signedToken(project, secret, claims) {
  const result = spawnSync('node', ['dist/token.js', ...claims], {
    cwd: project,
    env: userEnvironment({ JWT_SECRET: secret }),
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`node dist/token.js: ${result.stderr}`)
  return result.stdout.trim()
}

/**
 * Follows the page in `project` (a new folder) with the packed `tarballs`, on a new database of
 * the server of `serverUrl`, dropped at the end unless `keep`.
 */
export async function walkAccessTutorial(project, tarballs, serverUrl, keep) {
  mkdirSync(project)
  phase(`${label}a PostgreSQL database`)
  const database = await createScratchDatabase(serverUrl, { prefix: 'prisma_hydra_install' })
  console.log(`database ${database.name}`)
  const env = { DATABASE_URL: database.url, JWT_SECRET: randomBytes(32).toString('hex') }
  try {
    const [start, ...rest] = await followBlocks(blocks, project, {
      tarballs,
      envFor: () => env,
      label,
    })
    phase(`${label}step start`)
    const server = await startServer(commands(start.body)[0], project, env)
    try {
      const origin = new URL(server.base).origin
      await followBlocks(rest, project, {
        tarballs,
        envFor: () => env,
        rewrite: (text) => text.replaceAll('http://localhost:3000', origin),
        label,
      })
      phase(`${label}checks over HTTP`)
      await checkAccess(server.base, project, {
        ann: signedToken(project, env.JWT_SECRET, ['ann', '1', 'admin']),
        bob: signedToken(project, env.JWT_SECRET, ['bob', '1', 'member']),
        globex: signedToken(project, env.JWT_SECRET, ['ann', '2', 'member']),
        forged: signedToken(project, 'another secret', ['ann', '1', 'admin']),
      })
      phase(`${label}types`)
      await checkAccessTypes(project)
    } finally {
      server.stop()
    }
  } finally {
    if (keep) console.log(`database kept: DATABASE_URL=${database.url}`)
    else await database.drop()
  }
}
