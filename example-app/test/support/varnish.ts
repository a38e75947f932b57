/**
 * A real Varnish in front of a server (docs/caching.md#varnish): Debian's `varnishd` with vmod
 * xkey (`varnish-modules`), run with the VCL docs/caching.md gives, taken from the page itself (its
 * one ```vcl block and the `-p` parameters of its command line) with the backend's port made the
 * server's. Each Varnish has a folder of its own (`-n`), listens on a free loopback port (`-a`)
 * and is stopped by its PID at the end. Whether it is installed: required under CI, else the test
 * is skipped with a message.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { fencedBlocks } from './doc-snippets.js'
import { freePort } from './free-port.js'

const VARNISHD = '/usr/sbin/varnishd'
const VARNISHNCSA = '/usr/bin/varnishncsa'
const VARNISHADM = '/usr/bin/varnishadm'
const run = promisify(execFile)
const CACHING = new URL('../../../docs/caching.md', import.meta.url).pathname

/** Whether vmod xkey is in Varnish's modules folder (`/usr/lib/<architecture>/varnish/vmods`). */
function hasXkey(): boolean {
  return readdirSync('/usr/lib').some((folder) =>
    existsSync(`/usr/lib/${folder}/varnish/vmods/libvmod_xkey.so`)
  )
}

/** Whether Varnish and vmod xkey are installed; under CI their absence throws. */
export function varnishPresent(skipped: string): boolean {
  if (existsSync(VARNISHD) && hasXkey()) return true
  const message = `Varnish with vmod xkey is not installed (apt-get install -y varnish varnish-modules): ${skipped} is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
  return false
}

/**
 * What docs/caching.md gives to run Varnish: its one ```vcl block, the backend being
 * `127.0.0.1:port`, and the `-p` parameters of its `varnishd` command line.
 */
async function documentedVarnish(port: number) {
  const blocks = fencedBlocks('caching.md', await readFile(CACHING, 'utf8'))
  const vcl = blocks.filter((block) => block.language === 'vcl')
  if (vcl.length !== 1) throw new Error(`caching.md has ${vcl.length} vcl blocks, not one`)
  const code = vcl[0]?.code ?? ''
  const backend = /(backend default \{[^}]*\.port = ")(\d+)(";)/
  if (!backend.test(code)) throw new Error('the VCL of caching.md has no backend default port')
  const command = blocks.find((block) => block.language === 'sh' && block.code.includes('varnishd'))
  if (!command) throw new Error('caching.md has no varnishd command line')
  const parameters = [...command.code.matchAll(/-p (\S+)/g)].flatMap((match) => [
    '-p',
    match[1] ?? '',
  ])
  return { vcl: code.replace(backend, `$1${port}$3`), parameters }
}

/** Varnish in front of `origin` with the documented VCL: its origin, and a stop. */
export async function startVarnish(origin: string) {
  const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-varnish-'))
  const vcl = path.join(folder, 'default.vcl')
  const documented = await documentedVarnish(Number(new URL(origin).port))
  await writeFile(vcl, documented.vcl)
  const port = await freePort()
  const args = ['-F', '-j', 'none', '-a', `127.0.0.1:${port}`, '-n', path.join(folder, 'n')]
  const child: ChildProcess = spawn(
    VARNISHD,
    [...args, '-f', vcl, '-s', 'malloc,64m', ...documented.parameters],
    { stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
    await rm(folder, { recursive: true, force: true })
  }
  const cacheOrigin = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`varnishd exited:\n${output}`)
    try {
      // Answered by Varnish itself (a PURGE without tags), never by the server behind it.
      await fetch(`${cacheOrigin}/`, { method: 'PURGE' })
      break
    } catch {
      if (tries >= 150) {
        await stop()
        throw new Error(`varnishd does not answer after 30 s:\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  /** The path and query of every request Varnish answered from its cache so far. */
  const hits = async (): Promise<string[]> => {
    const format = '%{Varnish:hitmiss}x %U%q'
    const log = await run(VARNISHNCSA, ['-d', '-n', path.join(folder, 'n'), '-F', format])
    return log.stdout
      .split('\n')
      .filter((line) => line.startsWith('hit '))
      .map((line) => line.slice('hit '.length))
  }
  /** Drops every object the cache holds (a ban matching every URL). */
  const clear = async () => {
    await run(VARNISHADM, ['-n', path.join(folder, 'n'), 'ban', 'req.url', '~', '.'])
  }
  return { origin: cacheOrigin, stop, hits, clear }
}
