// A walk-through's server, started with its doc's command: on a free port (`PORT=0`), ready when
// it prints `Listening on <url>`, or on a port given, ready when it answers there; stopped with
// its whole process group.

import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { killGroup, running, userEnvironment } from './commands.mjs'

/** How long a server may take to be ready. */
const READY_LIMIT_MS = 30_000

function spawnServer(command, project, env) {
  console.log(`$ PORT=${env.PORT} ${command}`)
  const server = spawn('sh', ['-c', command], {
    cwd: project,
    env: userEnvironment(env),
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true, // its own process group: npm, sh and node stop together
  })
  running.add(server)
  const stop = () => {
    killGroup(server)
    running.delete(server)
  }
  let output = ''
  server.stdout.on('data', (chunk) => {
    output += chunk
    process.stdout.write(chunk)
  })
  return { server, stop, output: () => output }
}

/** Starts `command` in `project`; resolves to the server's base URL and a function stopping it. */
export function startServer(command, project, env = {}) {
  const { server, stop, output } = spawnServer(command, project, { ...env, PORT: '0' })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`no "Listening on" line in ${READY_LIMIT_MS / 1000} s:\n${output()}`))
    }, READY_LIMIT_MS)
    server.stdout.on('data', () => {
      const match = /Listening on (http:\/\/\S+)/.exec(output())
      if (match) {
        clearTimeout(timer)
        resolve({ base: match[1], stop })
      }
    })
    server.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code}) before listening:\n${output()}`))
    })
  })
}

/** A TCP port free now on this machine. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts `command` in `project` with `PORT=port` (for a server that prints no address, or not
 * the one to call) and the variables `env`; resolves, with a function stopping it, once `url`
 * answers at all.
 */
export async function startServerOn(command, project, port, url, env = {}) {
  const { server, stop, output } = spawnServer(command, project, { ...env, PORT: String(port) })
  let exited
  server.on('exit', (code, signal) => {
    exited = code ?? signal
  })
  const deadline = Date.now() + READY_LIMIT_MS
  while (exited === undefined) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) })
      return { stop }
    } catch {
      if (Date.now() > deadline) {
        stop()
        throw new Error(`${url} did not answer in ${READY_LIMIT_MS / 1000} s:\n${output()}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  throw new Error(`the server exited (${exited}) before answering:\n${output()}`)
}
