// Commands run as a user runs them: through `sh`, in the project folder, in a user's environment,
// each in its own process group so that it can be stopped whole.

import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root folder. */
export const root = fileURLToPath(new URL('../../', import.meta.url))
/** This repository's wasm-backed schema engine (CONTRIBUTING.md, "The clean-project test"). */
export const schemaEngine = path.join(root, 'tools/prisma-offline/src/schema-engine.mjs')

/** Each command's bound (npm install compiles better-sqlite3 when no prebuilt binary downloads). */
export const COMMAND_LIMIT_MS = 8 * 60_000

/** The commands and servers still running, stopped by the run's bound. */
export const running = new Set()

/** The environment of a user's shell: no npm run variables, no path into this repository. */
export function userEnvironment(extra = {}) {
  const env = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('npm_') || key === 'INIT_CWD' || key === 'NODE_OPTIONS') continue
    env[key] = value
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !path.resolve(dir).startsWith(root))
    .join(path.delimiter)
  return {
    ...env,
    PRISMA_SCHEMA_ENGINE_BINARY: schemaEngine,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
    ...extra,
  }
}

/** Runs a shell command in its own process group, killed whole when it outlives its bound. */
export function run(command, cwd, env = userEnvironment()) {
  console.log(`$ ${command}`)
  const child = spawn('sh', ['-c', command], { cwd, env, stdio: 'inherit', detached: true })
  running.add(child)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child)
      reject(new Error(`${command}: over its bound of ${COMMAND_LIMIT_MS / 1000} s`))
    }, COMMAND_LIMIT_MS)
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      running.delete(child)
      if (code === 0) resolve()
      else reject(new Error(`${command}: exit ${code ?? signal}`))
    })
  })
}

/** Stops a command started by `run` or a server, with every process of its group. */
export function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    // already gone
  }
}
