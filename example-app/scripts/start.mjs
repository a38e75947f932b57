#!/usr/bin/env node
// `npm start`: serves the example app (src/main.ts, through tsx) on the database DATABASE_URL
// names (default: the SQLite file ./dev.db); `node scripts/start.mjs src/admin.ts` (`npm run
// admin`) runs another entry point the same way. A generated Prisma client serves one provider only,
// so Node runs with the URL's provider as a condition: `#generated/*` (package.json "imports")
// then resolves to the code generated for it (src/generated-postgresql/ for PostgreSQL,
// src/generated/ for SQLite; scripts/generate.mjs writes both). stdio, exit code and signals are
// passed through.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { providerOf } from '@prisma-hydra/prisma-offline/push-schema'

const require = createRequire(import.meta.url)
const url = process.env.DATABASE_URL
const entry = process.argv[2] ?? 'src/main.ts'

let provider = 'sqlite'
if (url) {
  try {
    provider = providerOf(url)
  } catch (error) {
    console.error(`DATABASE_URL: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
}

const child = spawn(
  process.execPath,
  [
    `--conditions=${provider}`,
    '--import',
    pathToFileURL(require.resolve('tsx')).href,
    entry,
    ...process.argv.slice(3),
  ],
  { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'inherit' }
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1)
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
})
