/**
 * The baseline of bench/budget-load.ts: a release's runtime serving that release's example app,
 * measured in the same run as the work tree. The release's commit is found in HEAD's history
 * (tools/release/release-history.mjs) and checked out in a git worktree of its own with every
 * workspace's dependencies (tools/release/release-worktree.mjs with `example`); there its
 * runtime and generator are built, its example app's code is generated for each database (its
 * own scripts/generate.mjs, the app's schema alone), and the given server script is copied in,
 * so that the same server serves that tree's example app on that tree's runtime.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { releaseCommitOf } from '../tools/release/release-history.mjs'
import { releaseWorktree } from '../tools/release/release-worktree.mjs'
import { atTeardown } from './teardown.js'

/** A build or a generation in the release's tree: minutes on a loaded 2-core machine. */
const STEP_LIMIT_MS = 15 * 60_000

/** A release ready to serve. */
export interface Release {
  version: string
  commit: string
  /** The server script in the release's tree. */
  server: string
  /** Takes the release's tree away (also on a signal: bench/teardown.ts). */
  remove: () => void
}

/**
 * Runs `command` in `cwd`, its output on stderr; throws unless it ends well. It runs in a process
 * group of its own, ended whole (npx, turbo and the builds under it) past the time limit and on a
 * signal, before the tree it writes to is removed.
 */
async function run(command: string, args: string[], cwd: string, env = process.env) {
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ['ignore', process.stderr, 'inherit'],
    detached: true,
  })
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>
  const end = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    try {
      process.kill(-(child.pid as number), 'SIGTERM')
    } catch {
      // The group ended meanwhile.
    }
    await exited
  }
  const timer = setTimeout(end, STEP_LIMIT_MS)
  const forget = atTeardown(end)
  try {
    const [code, signal] = await exited
    if (code !== 0) throw new Error(`${command} ${args.join(' ')}: ${signal ?? `exit ${code}`}`)
  } finally {
    clearTimeout(timer)
    forget()
  }
}

/** Checks the release `version` out and prepares it to serve with `server` (a script's path). */
export async function prepareRelease(version: string, server: string): Promise<Release> {
  const commit = releaseCommitOf(version)
  const worktree = releaseWorktree(commit, { example: true })
  const forget = atTeardown(worktree.remove)
  const remove = () => {
    forget()
    worktree.remove()
  }
  try {
    const { tree } = worktree
    console.error(`the release ${version} is ${commit}: its dependencies ${worktree.dependencies}`)
    // With an empty turbo cache of the tree's own, as tools/release/pack.mjs builds a release:
    // an older turbo.json may not name every output its build writes.
    const cache = { ...process.env, TURBO_CACHE_DIR: path.join(tree, '.turbo/cache') }
    const filters = ['--filter=@prisma-hydra/runtime', '--filter=@prisma-hydra/generator']
    await run(
      'npx',
      ['turbo', 'run', 'build', ...filters, '--output-logs=errors-only'],
      tree,
      cache
    )
    await run(process.execPath, ['scripts/generate.mjs', 'prisma'], path.join(tree, 'example-app'))
    const copied = path.join(tree, 'bench', path.basename(server))
    await mkdir(path.dirname(copied), { recursive: true })
    await copyFile(server, copied)
    return { version, commit, server: copied, remove }
  } catch (error) {
    remove()
    throw error
  }
}
