// A walk-through's server, started with its doc's `start` command on a free port (`PORT=0`):
// ready when it prints `Listening on <url>`, stopped with its whole process group.

import { spawn } from 'node:child_process'
import { killGroup, running, userEnvironment } from './commands.mjs'

/** Starts `command` in `project`; resolves to the server's base URL and a function stopping it. */
export function startServer(command, project, env = {}) {
  console.log(`$ PORT=0 ${command}`)
  const server = spawn('sh', ['-c', command], {
    cwd: project,
    env: userEnvironment({ ...env, PORT: '0' }),
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true, // its own process group: npm, sh and node stop together
  })
  running.add(server)
  const stop = () => {
    killGroup(server)
    running.delete(server)
  }
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`no "Listening on" line in 30 s:\n${output}`))
    }, 30_000)
    server.stdout.on('data', (chunk) => {
      output += chunk
      process.stdout.write(chunk)
      const match = /Listening on (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ base: match[1], stop })
      }
    })
    server.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code}) before listening:\n${output}`))
    })
  })
}
