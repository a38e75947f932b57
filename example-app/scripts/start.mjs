#!/usr/bin/env node
// `npm start`: serves the example app (src/main.ts, through tsx) on the database DATABASE_URL
// names (default: the SQLite file ./dev.db); `node scripts/start.mjs src/admin.ts` (`npm run
// admin`) runs another entry point the same way. A generated Prisma client serves one provider only,
// so Node runs with the URL's provider as a condition: `#generated/*` (package.json "imports")
// then resolves to the code generated for it (src/generated-postgresql/ for PostgreSQL,
// src/generated/ for SQLite; scripts/generate.mjs writes both). stdio, exit code and signals are
// passed through.
//
// `--runtime=bun` (`npm run start:bun`) and `--runtime=deno` (`npm run start:deno`) run the same
// entry on Bun or Deno instead, installed with the example's devDependencies, with the same
// condition; Deno also needs `--sloppy-imports` for the example's `.js` imports of `.ts` files
// (docs/runtime-bun-deno.md).
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { providerOf } from '@prisma-hydra/prisma-offline/push-schema'

const require = createRequire(import.meta.url)
const url = process.env.DATABASE_URL
const args = process.argv.slice(2)
const runtime = args[0]?.startsWith('--runtime=') ? args.shift().slice('--runtime='.length) : 'node'
const entry = args.shift() ?? 'src/main.ts'

let provider = 'sqlite'
if (url) {
  try {
    provider = providerOf(url)
  } catch (error) {
    console.error(`DATABASE_URL: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
}

/** The command of each runtime, and its arguments before the entry's. */
const COMMANDS = {
  node: [
    process.execPath,
    `--conditions=${provider}`,
    '--import',
    pathToFileURL(require.resolve('tsx')).href,
  ],
  bun: ['bun', `--conditions=${provider}`],
  deno: ['deno', 'run', '--allow-all', '--sloppy-imports', `--conditions=${provider}`],
}
if (!Object.hasOwn(COMMANDS, runtime)) {
  console.error(`--runtime=${runtime}: the example runs on ${Object.keys(COMMANDS).join(', ')}`)
  process.exit(1)
}
const [command, ...options] = COMMANDS[runtime]
// Bun's and Deno's commands, from the example's devDependencies (npm links them in node_modules/.bin).
const bins = path.join(path.dirname(require.resolve('bun/package.json')), '..', '.bin')

const child = spawn(command, [...options, entry, ...args], {
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  stdio: 'inherit',
  env: { ...process.env, PATH: [bins, process.env.PATH].join(path.delimiter) },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1)
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
})
