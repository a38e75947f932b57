#!/usr/bin/env node
// Runs the real Prisma CLI offline: `node scripts/prisma.mjs <prisma args...>`.
// PRISMA_SCHEMA_ENGINE_BINARY points at the wasm-backed shim (scripts/schema-engine.mjs) unless
// already set, so the CLI does not try to download the native schema engine; update checks and
// telemetry are switched off (PRISMA_HIDE_UPDATE_MESSAGE, CHECKPOINT_DISABLE). stdio, exit code
// and signals are passed through.

import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const cli = require.resolve('prisma/build/index.js')

// Generators are commands (`provider = "prisma-hydra"`): find the workspace's bins as npm would.
const bins = ['../node_modules/.bin', '../../node_modules/.bin'].map((dir) =>
  fileURLToPath(new URL(dir, import.meta.url))
)

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
