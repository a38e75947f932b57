// The package's bin: a command for people when given arguments (`init`, `--help`), Prisma's
// generator without them, whose protocol it still answers.

import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { init, projectFolder, readFiles, run } from './support.js'

const bin = fileURLToPath(new URL('../../bin/prisma-hydra.js', import.meta.url))

describe('the command line', () => {
  it('prints its usage for --help, and exits 0', () => {
    const result = init(projectFolder(), '--help')
    expect(result.code).toBe(0)
    expect(result.out).toContain('Usage: prisma-hydra init [--runtime node|bun|deno|workers]')
  })

  it.each([
    [[], 'no command'],
    [['create'], 'unknown command "create"'],
    [['init', 'here'], 'unexpected argument "here"'],
    [['init', '--runtime', 'rust'], '--runtime is "rust"; it takes node, bun, deno, workers'],
    [['init', '--force'], "Unknown option '--force'"],
  ])('refuses %j with exit code 2 and its usage, writing nothing', (args, message) => {
    const folder = projectFolder()
    const result = run(folder, args)
    expect(result.code).toBe(2)
    expect(result.err).toContain(message)
    expect(result.err).toContain('Usage: prisma-hydra init')
    expect(readFiles(folder)).toEqual({})
  })
})

// The bin imports the built package: the generator's tests run after its build.
describe('bin/prisma-hydra.js', () => {
  it('runs init when given it', () => {
    const folder = projectFolder()
    const result = spawnSync('node', [bin, 'init', '--runtime', 'deno'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(Object.keys(readFiles(folder))).toContain('src/server.ts')
  })

  it('refuses with exit code 1 when init does', () => {
    const folder = projectFolder()
    spawnSync('node', [bin, 'init'], { cwd: folder, timeout: 20_000 })
    const again = spawnSync('node', [bin, 'init'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(again.status).toBe(1)
    expect(again.stderr).toContain('src/server.ts: exists; init does not overwrite files')
  })

  it("answers Prisma's generator protocol without arguments", async () => {
    // Prisma forks the bin without arguments and asks for its manifest on standard input; the
    // answer comes on standard error, one JSON line.
    const child = spawn('node', [bin], {
      env: { ...process.env, PRISMA_GENERATOR_INVOCATION: 'true' },
      stdio: ['pipe', 'ignore', 'pipe'],
    })
    let answer = ''
    const line = new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        answer += chunk
        if (answer.includes('\n')) resolve(answer.split('\n')[0] as string)
      })
      child.on('exit', (code) => reject(new Error(`the generator exited (${code}): ${answer}`)))
      setTimeout(() => reject(new Error(`no answer in 20 s: ${answer}`)), 20_000).unref()
    })
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'getManifest', params: {}, id: 1 })}\n`
    )
    try {
      const response = JSON.parse(await line)
      expect(response).toMatchObject({
        id: 1,
        result: { manifest: { prettyName: 'Prisma Hydra routes' } },
      })
    } finally {
      child.kill()
    }
  })
})
