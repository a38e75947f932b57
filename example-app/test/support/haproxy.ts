/**
 * A real HAProxy in front of instances of the example (docs/deployment.md#load-balancers):
 * Debian's `haproxy`, run in the foreground with the configuration the page gives (its one
 * ```haproxy block), its `bind` made a free loopback port and its `server` lines the instances'
 * addresses, plus a stats socket of the test's own, through which the state of each instance
 * (UP, DOWN) is read as HAProxy sees it. Whether it is installed: required under CI, else the
 * test is skipped with a message.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fencedBlocks } from './doc-snippets.js'
import { freePort } from './free-port.js'

const HAPROXY = '/usr/sbin/haproxy'
const DEPLOYMENT = new URL('../../../docs/deployment.md', import.meta.url).pathname

/** Whether HAProxy is installed; under CI its absence throws. */
export function haproxyPresent(skipped: string): boolean {
  if (existsSync(HAPROXY)) return true
  const message = `HAProxy is not installed (apt-get install -y haproxy): ${skipped} is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
  return false
}

/**
 * deployment.md's one ```haproxy block, listening on `127.0.0.1:port`, its servers (`server <name>
 * <address> ...`) those of `backends` in order: there must be as many.
 */
async function documentedConfiguration(port: number, backends: readonly number[]) {
  const blocks = fencedBlocks('deployment.md', await readFile(DEPLOYMENT, 'utf8'))
  const haproxy = blocks.filter((block) => block.language === 'haproxy')
  if (haproxy.length !== 1) throw new Error(`deployment.md has ${haproxy.length} haproxy blocks`)
  let code = haproxy[0]?.code ?? ''
  if (!/^\s*bind \S+$/m.test(code)) throw new Error('the haproxy block has no bind line')
  code = code.replace(/^(\s*bind )\S+$/m, `$1127.0.0.1:${port}`)
  const servers = /^(\s*server \S+ )\S+/gm
  const found = code.match(servers)?.length ?? 0
  if (found !== backends.length)
    throw new Error(`the haproxy block has ${found} servers, not ${backends.length}`)
  let at = 0
  return code.replace(servers, (_, start: string) => `${start}127.0.0.1:${backends[at++]}`)
}

/** What HAProxy says of each server of its backend: `UP`, `DOWN`, `MAINT`..., by name. */
export type ServerStates = Record<string, string>

/** HAProxy with the documented configuration before `backends` (ports on 127.0.0.1). */
export async function startHaproxy(backends: readonly number[]) {
  const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-haproxy-'))
  const socket = path.join(folder, 'stats.sock')
  const port = await freePort()
  const configuration = path.join(folder, 'haproxy.cfg')
  const documented = await documentedConfiguration(port, backends)
  // The stats socket is the test's own: how it reads what HAProxy makes of each instance.
  await writeFile(configuration, `global\n  stats socket ${socket} level admin\n\n${documented}`)
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', configuration], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
    await rm(folder, { recursive: true, force: true })
  }
  /** The state of each server of the backend, from `show stat`. */
  const states = async (): Promise<ServerStates> => {
    const csv = await ask(socket, 'show stat\n')
    const [header = '', ...rows] = csv.replace(/^# /, '').trim().split('\n')
    const names = header.split(',')
    const [proxy, server, status] = ['pxname', 'svname', 'status'].map((n) => names.indexOf(n))
    const found: ServerStates = {}
    for (const row of rows.map((line) => line.split(','))) {
      const name = row[server as number] ?? ''
      if (row[proxy as number] === 'instances' && !/^(FRONTEND|BACKEND)$/.test(name))
        found[name] = row[status as number] ?? ''
    }
    return found
  }
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${output}`)
    try {
      await states()
      break
    } catch (error) {
      if (tries >= 150) {
        await stop()
        throw new Error(`haproxy does not answer after 30 s: ${error}\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  return { origin: `http://127.0.0.1:${port}`, states, stop, output: () => output }
}

/** Sends `command` to HAProxy's stats socket at `socket`; its whole answer. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket, () => connection.end(command))
    let answer = ''
    connection.on('data', (chunk: Buffer) => (answer += chunk))
    connection.on('error', reject)
    connection.on('close', () => resolve(answer))
  })
}
