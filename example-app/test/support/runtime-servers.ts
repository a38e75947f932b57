/**
 * The example app's server on each runtime, started as its docs say (docs/runtime-*.md): `npm start`'s
 * script with `--runtime=node|bun|deno` (`npm start`, `npm run start:bun`, `npm run start:deno`),
 * and on workerd `npm run d1:seed` then wrangler's `dev --local` (`npm run start:workers`), with
 * ports of its own.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './free-port.js'

const APP = new URL('../..', import.meta.url).pathname
/** The commands npm links for the workspace (wrangler, bun, deno). */
const BIN = path.join(APP, '..', 'node_modules', '.bin')

export type RuntimeName = 'node' | 'bun' | 'deno' | 'workerd'

export interface RuntimeServer {
  runtime: RuntimeName
  /** `http://127.0.0.1:<port>`. */
  origin: string
  /** Everything the server printed. */
  output(): string
  /**
   * Stops it with `signal` (SIGTERM by default) to its process group; SIGKILL after KILL_AFTER.
   * How it ended; once it has ended, a call says the same without a signal.
   */
  stop(signal?: NodeJS.Signals): Promise<Exit>
}

/** How a server's process ended: its exit code, or the signal that ended it. */
export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

/** The environment of every server: no metrics sent by wrangler, which has no network here. */
const ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', PATH: `${BIN}:${process.env.PATH}` }

/** Starts `command` in a process group of its own; resolves once `ready` finds the port. */
function startProcess(
  runtime: RuntimeName,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: (output: string) => number | undefined
): Promise<RuntimeServer> {
  const child = spawn(command, args, {
    cwd: APP,
    env: { ...ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopGroup(child)
      reject(new Error(`${runtime}: not listening after 90 s:\n${output}`))
    }, 90_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const port = ready(output)
      if (port === undefined) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      resolve({
        runtime,
        origin: `http://127.0.0.1:${port}`,
        output: () => output,
        stop: (signal) => stopGroup(child, signal),
      })
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${runtime}: exited with ${code}:\n${output}`))
    })
  })
}

/**
 * How long a stopped server may take before it is killed: the example's drain (5 s) and its grace
 * for the requests in flight (10 s, src/serve.ts), with time to spare on a loaded machine, so that
 * a kill says the server did not stop as documented.
 */
const KILL_AFTER = 20_000

/**
 * Ends a server and every process it started (npm, wrangler and workerd); killed after KILL_AFTER,
 * which its exit then says (`SIGKILL`). How the server's own process ended.
 */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
  const ended = (): Exit => ({ code: child.exitCode, signal: child.signalCode })
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve(ended())
  const group = -child.pid
  return new Promise((resolve) => {
    // Its exit may go unseen when the group is gone already: the kill then finds no process.
    const timer = setTimeout(() => {
      const unseen = ended()
      try {
        process.kill(group, 'SIGKILL')
      } catch {}
      resolve(
        unseen.code !== null || unseen.signal !== null ? unseen : { code: null, signal: 'SIGKILL' }
      )
    }, KILL_AFTER)
    child.once('exit', (code, signalCode) => {
      clearTimeout(timer)
      // What the server started may outlive it (workerd under wrangler).
      try {
        process.kill(group, 'SIGKILL')
      } catch {}
      resolve({ code, signal: signalCode })
    })
    process.kill(group, signal)
  })
}

/**
 * Whether the example can run on `runtime`: Node always; Bun and Deno when their commands are
 * installed (the example's devDependencies link them); under CI their absence throws, else the
 * test named `skipped` is skipped with a message.
 */
export function runtimePresent(runtime: 'node' | 'bun' | 'deno', skipped: string): boolean {
  if (runtime === 'node' || existsSync(path.join(BIN, runtime))) return true
  const message = `${runtime} is not installed (npm install in example-app/): ${skipped} skips it.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
  return false
}

/** The example's own server on Node, Bun or Deno (scripts/start.mjs), on `url`, any free port. */
export function startExample(
  runtime: 'node' | 'bun' | 'deno',
  url: string,
  env: NodeJS.ProcessEnv = {}
): Promise<RuntimeServer> {
  return startProcess(
    runtime,
    process.execPath,
    ['scripts/start.mjs', `--runtime=${runtime}`],
    { PORT: '0', DATABASE_URL: url, ...env },
    (output) => {
      const port = /example app on http:\/\/localhost:(\d+)/.exec(output)?.[1]
      return port && output.includes('/books/1') ? Number(port) : undefined
    }
  )
}

/** What a start that stopped wrote, and its exit code. */
export interface FailedStart {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * The example started on Node, Bun or Deno as `startExample` starts it, with `env` (a variable
 * set to undefined is unset), expected to stop: what it wrote. Killed after 90 s.
 */
export function failedStart(
  runtime: 'node' | 'bun' | 'deno',
  env: NodeJS.ProcessEnv
): Promise<FailedStart> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['scripts/start.mjs', `--runtime=${runtime}`],
      { cwd: APP, env: { ...ENV, PORT: '0', ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error)
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
      }
    )
  })
}

/**
 * The example on workerd with its local D1 (docs/runtime-workers.md): `npm run d1:seed` fills
 * the example's local D1 (example-app/.wrangler) with the tables and rows of the seed and empties
 * its local cache, then `wrangler dev --local` serves src/worker.ts over it, or the Worker of
 * `config` (a wrangler.jsonc) over the same D1 and cache.
 */
export async function startWorker(config?: string): Promise<RuntimeServer> {
  const release = await holdLocalD1()
  try {
    const server = await seededWorker(config)
    return {
      ...server,
      stop: async (signal) => {
        const exit = await server.stop(signal)
        await release()
        return exit
      },
    }
  } catch (error) {
    await release()
    throw error
  }
}

/**
 * The example's local D1 and cache (example-app/.wrangler) are one a checkout, which the suite's
 * files running side by side would seed and empty under each other's Worker: a Worker holds them
 * from its seed to its stop, and another waits (a folder made atomically, naming its process, so
 * that one left by a process that died is taken over).
 */
const D1_HOLD = path.join(APP, '.wrangler', 'test-hold')

/** Whether the process named in the hold is alive (a hold just made names none yet: alive). */
async function holderAlive(): Promise<boolean> {
  let pid: number
  try {
    pid = Number(await readFile(path.join(D1_HOLD, 'pid'), 'utf8'))
  } catch {
    return true
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Holds the local D1 for this process; resolves with its release. Waits 5 minutes at most. */
async function holdLocalD1(): Promise<() => Promise<void>> {
  await mkdir(path.dirname(D1_HOLD), { recursive: true })
  const started = Date.now()
  for (;;) {
    try {
      await mkdir(D1_HOLD)
      await writeFile(path.join(D1_HOLD, 'pid'), String(process.pid))
      return () => rm(D1_HOLD, { recursive: true, force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (!(await holderAlive())) await rm(D1_HOLD, { recursive: true, force: true })
    else if (Date.now() - started > 300_000) throw new Error(`${D1_HOLD} held for 5 minutes`)
    else await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The Worker of `config`, or the example's, over the local D1 seeded anew. */
async function seededWorker(config: string | undefined): Promise<RuntimeServer> {
  try {
    await promisify(execFile)('npm', ['run', '-s', 'd1:seed'], {
      cwd: APP,
      env: ENV,
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`npm run d1:seed failed:\n${stderr}\n${stdout?.slice(-2000)}`, { cause: error })
  }
  const [port, inspector] = [await freePort(), await freePort()]
  return startProcess(
    'workerd',
    path.join(BIN, 'wrangler'),
    [
      'dev',
      '--local',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      ...(config ? ['--config', config, '--persist-to', path.join(APP, '.wrangler', 'state')] : []),
    ],
    {},
    (output) => (/Ready on http:\/\/[^\s]+/.test(output) ? port : undefined)
  )
}
