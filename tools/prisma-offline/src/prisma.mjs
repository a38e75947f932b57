#!/usr/bin/env node
// Runs the real Prisma CLI offline: `prisma-offline <prisma args...>` (this package's bin), or
// `node tools/prisma-offline/src/prisma.mjs <prisma args...>`.
// PRISMA_SCHEMA_ENGINE_BINARY points at the wasm-backed shim (src/schema-engine.mjs) unless
// already set, so the CLI does not try to download the native schema engine; update checks and
// telemetry are switched off (PRISMA_HIDE_UPDATE_MESSAGE, CHECKPOINT_DISABLE). stdio, exit code
// and signals are passed through.

import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const cli = require.resolve('prisma/build/index.js')

// Generators are commands (`provider = "prisma-hydra"`): find the bins as `npm exec` would, in
// node_modules/.bin of the working directory and its parents, then of this package's parents.
function binFolders(...starts) {
  const folders = []
  for (const start of starts) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      const bin = path.join(dir, 'node_modules', '.bin')
      if (!folders.includes(bin)) folders.push(bin)
      if (path.dirname(dir) === dir) break
    }
  }
  return folders
}
const bins = binFolders(process.cwd(), fileURLToPath(new URL('..', import.meta.url)))

const env = {
  ...process.env,
  PATH: [...bins, process.env.PATH ?? ''].join(path.delimiter),
  PRISMA_SCHEMA_ENGINE_BINARY:
    process.env.PRISMA_SCHEMA_ENGINE_BINARY ??
    fileURLToPath(new URL('./schema-engine.mjs', import.meta.url)),
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
}

const child = spawn(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1)
  // Die of the same signal as the CLI did.
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
})
