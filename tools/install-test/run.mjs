#!/usr/bin/env node
// The clean-project test: does what a user does, outside this repository. It packs both
// packages, creates a project in a temporary folder, and follows docs/getting-started.md top to
// bottom: the doc's blocks marked `step=<name>` are the commands it runs (through `sh`, in the
// project folder, with the packed tarballs in place of the published names) and the blocks marked
// `file=<path>` the files it writes, in the doc's order. Then it checks the running server over
// HTTP (entrypoint, a page, an item, errors, the documentation, and requests only raw bytes can
// send), the types a user sees, and the source maps of the installed packages.
//
// Offline, the Prisma CLI cannot download its native schema engine: PRISMA_SCHEMA_ENGINE_BINARY
// points it at this repository's wasm-backed engine (CONTRIBUTING.md, "The clean-project test").
// Everything else comes from the npm registry, as for a user.
//
// Usage: node tools/install-test/run.mjs [--keep]   (--keep: leave the project folder in place)

import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:http'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkRawRequests } from './raw-requests.mjs'

const root = fileURLToPath(new URL('../../', import.meta.url))
const doc = path.join(root, 'docs/getting-started.md')
const schemaEngine = path.join(root, 'tools/prisma-offline/src/schema-engine.mjs')

/** The whole run's bound: well above the ~4 minutes it takes, far below CI's 30. */
const TOTAL_LIMIT_MS = 12 * 60_000
/** Each command's bound (npm install compiles better-sqlite3 when no prebuilt binary downloads). */
const COMMAND_LIMIT_MS = 8 * 60_000

const keep = process.argv.includes('--keep')
const started = Date.now()
const timings = []
let phaseName
let phaseStart = started

function phase(name) {
  const now = Date.now()
  if (phaseName) timings.push([phaseName, now - phaseStart])
  phaseName = name
  phaseStart = now
  console.log(`--- ${name}`)
}

function printTimings() {
  if (phaseName) timings.push([phaseName, Date.now() - phaseStart])
  phaseName = undefined
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(30)} ${(ms / 1000).toFixed(1)} s`)
  console.log(`  ${'total'.padEnd(30)} ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

// ---------------------------------------------------------------------------------------------
// The doc's marked blocks

/** The fenced blocks of the doc carrying `step=` or `file=`, in order. */
function markedBlocks(markdown) {
  const blocks = []
  const fence = /^```(\S*)([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm
  for (const match of markdown.matchAll(fence)) {
    const attributes = Object.fromEntries(
      [...match[2].matchAll(/(\w+)=(\S+)/g)].map(([, key, value]) => [key, value])
    )
    if (attributes.step) blocks.push({ kind: 'step', name: attributes.step, body: match[3] })
    else if (attributes.file) blocks.push({ kind: 'file', name: attributes.file, body: match[3] })
  }
  return blocks
}

const blocks = markedBlocks(readFileSync(doc, 'utf8'))
const steps = blocks.filter((b) => b.kind === 'step').map((b) => b.name)
const files = blocks.filter((b) => b.kind === 'file').map((b) => b.name)
const expectedSteps = ['init', 'install', 'generate', 'create-tables', 'build', 'start']
const expectedFiles = [
  'prisma/schema.prisma',
  'prisma.config.ts',
  'src/prisma.ts',
  'src/server.ts',
  'src/seed.ts',
  'tsconfig.json',
]
if (steps.join() !== expectedSteps.join()) {
  throw new Error(
    `${doc}: expected the steps ${expectedSteps.join(', ')} in that order, found ${steps.join(', ')}`
  )
}
for (const file of expectedFiles) {
  if (!files.includes(file)) throw new Error(`${doc}: no block marked file=${file}`)
}
const tsconfig = JSON.parse(blocks.find((b) => b.name === 'tsconfig.json').body)
if (tsconfig.compilerOptions?.strict !== true)
  throw new Error("the doc's tsconfig.json must be strict")

// ---------------------------------------------------------------------------------------------
// Commands

/** The environment of a user's shell: no npm run variables, no path into this repository. */
function userEnvironment(extra = {}) {
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
function run(command, cwd, env = userEnvironment()) {
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

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    // already gone
  }
}

/** The lines of a step block that are commands (comments and blank lines left out). */
function commands(body) {
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
}

// ---------------------------------------------------------------------------------------------
// better-sqlite3's addon
//
// Its install script downloads a prebuilt binary for the platform from GitHub (prebuild-install)
// and compiles SQLite from source when that fails, as it does offline: 2 to 10 minutes on a loaded
// CI machine. A user online gets the prebuilt binary; so does this test, from a local mirror
// (prebuild-install's npm_config_better_sqlite3_binary_host) serving the addon the workspace
// compiled from the same version for the same Node.js ABI and platform. A request for any other
// version is a 404, and the install then compiles, as it would offline.

const prebuiltMirror = { env: {}, served: 0, requested: [], url: undefined, close: () => {} }

async function startPrebuiltMirror() {
  const workspacePackage = path.join(root, 'node_modules/better-sqlite3')
  const addon = path.join(workspacePackage, 'build/Release/better_sqlite3.node')
  if (!existsSync(addon)) return
  const { version } = JSON.parse(readFileSync(path.join(workspacePackage, 'package.json'), 'utf8'))
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  const tarball = path.join(work, name)
  const tar = spawnSync('tar', [
    '-czf',
    tarball,
    '-C',
    workspacePackage,
    'build/Release/better_sqlite3.node',
  ])
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`)
  const body = readFileSync(tarball)
  const server = createServer((request, response) => {
    prebuiltMirror.requested.push(request.url)
    if (request.url === `/v${version}/${name}`) {
      prebuiltMirror.served++
      response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length })
      response.end(body)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `http://127.0.0.1:${server.address().port}`
  prebuiltMirror.env = { npm_config_better_sqlite3_binary_host: host }
  prebuiltMirror.url = `${host}/v${version}/${name}`
  prebuiltMirror.close = () => {
    server.close()
    // prebuild-install keeps what it downloads in the npm cache, by URL: this URL's port never
    // comes back, so its entry would only take space.
    const digest = createHash('sha512').update(prebuiltMirror.url).digest('hex').slice(0, 6)
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: npm's own setting, not a turbo input
    const cache = process.env.npm_config_cache ?? path.join(homedir(), '.npm')
    rmSync(path.join(cache, '_prebuilds', `${digest}-${name.replace(/[^a-zA-Z0-9.]+/g, '-')}`), {
      force: true,
    })
  }
  console.log(`better-sqlite3 ${version}: prebuilt binary offered at ${prebuiltMirror.url}`)
}

// ---------------------------------------------------------------------------------------------
// The run

const running = new Set()
// The whole run's bound: stop every command still running, keep the project to look at.
setTimeout(() => {
  console.error(`clean-project test: over its bound of ${TOTAL_LIMIT_MS / 1000} s, stopped`)
  for (const child of running) killGroup(child)
  printTimings()
  console.log(`project kept in ${project}`)
  process.exit(1)
}, TOTAL_LIMIT_MS).unref()

const work = mkdtempSync(path.join(tmpdir(), 'prisma-hydra-install-'))
const project = path.join(work, 'my-api')
let server
let failed = true
try {
  phase('pack the packages')
  const tarballs = {}
  for (const dir of ['runtime', 'generator']) {
    const result = spawnSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: path.join(root, dir),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: COMMAND_LIMIT_MS,
    })
    if (result.status !== 0) throw new Error(`npm pack in ${dir}: exit ${result.status}`)
    const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')))
    tarballs[packed.name] = path.join(work, packed.filename)
    console.log(`${packed.name}: ${packed.filename}, ${packed.entryCount} files`)
  }
  chmodSync(schemaEngine, 0o755)
  await startPrebuiltMirror()

  mkdirSync(project)
  for (const block of blocks) {
    if (block.kind === 'file') {
      phase(`write ${block.name}`)
      mkdirSync(path.dirname(path.join(project, block.name)), { recursive: true })
      writeFileSync(path.join(project, block.name), block.body)
      continue
    }
    if (block.name === 'start') break
    phase(`step ${block.name}`)
    for (let command of commands(block.body)) {
      for (const [name, tarball] of Object.entries(tarballs)) {
        command = command.replace(new RegExp(`(^|\\s)${name}(?=\\s|$)`, 'g'), `$1${tarball}`)
      }
      await run(
        command,
        project,
        userEnvironment(block.name === 'install' ? prebuiltMirror.env : {})
      )
    }
  }

  phase('types a user sees')
  // Written after the doc's build: a hidden field is not part of the member type, and the member
  // type is not `any` (an unused @ts-expect-error is itself an error).
  writeFileSync(
    path.join(project, 'src/types-check.ts'),
    [
      "import type { BookMember } from './generated/hydra/index.js'",
      '',
      'export function title(book: BookMember): string {',
      '  // @ts-expect-error internalNote is @hidden',
      '  void book.internalNote',
      '  return book.title',
      '}',
      '',
    ].join('\n')
  )
  await run('npx tsc --noEmit', project)

  phase('step start')
  const [startCommand] = commands(blocks.find((b) => b.name === 'start').body)
  const base = await startServer(startCommand)

  phase('HTTP checks')
  await checkServer(base)
  await checkRawRequests(base, expect)

  phase('source maps of the installed packages')
  checkSourceMaps(path.join(project, 'node_modules/@prisma-hydra'))
  failed = false
} finally {
  if (server) stopServer()
  prebuiltMirror.close()
  if (prebuiltMirror.requested.length > 0) {
    console.log(
      `better-sqlite3: ${prebuiltMirror.served ? 'prebuilt binary installed' : 'compiled from source'} (asked for ${prebuiltMirror.requested.join(', ')})`
    )
  }
  if (failed || keep) console.log(`project kept in ${project}`)
  else {
    phase('remove the project') // about 15,000 files and 380 MB: a minute on a slow disk
    rmSync(work, { recursive: true, force: true })
  }
  printTimings()
}
console.log('clean-project test passed')

// ---------------------------------------------------------------------------------------------
// The server

function startServer(command) {
  console.log(`$ PORT=0 ${command}`)
  server = spawn('sh', ['-c', command], {
    cwd: project,
    env: userEnvironment({ PORT: '0' }),
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true, // its own process group: npm, sh and node stop together
  })
  running.add(server)
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new Error(`no "Listening on" line in 30 s:\n${output}`)),
      30_000
    )
    server.stdout.on('data', (chunk) => {
      output += chunk
      process.stdout.write(chunk)
      const match = /Listening on (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    server.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code}) before listening:\n${output}`))
    })
  })
}

function stopServer() {
  killGroup(server)
}

async function get(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  const text = await response.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`GET ${url}: not JSON (${response.status}): ${text.slice(0, 200)}`)
  }
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    link: response.headers.get('link'),
    body,
  }
}

function expect(condition, message, detail) {
  if (!condition)
    throw new Error(
      `${message}${detail === undefined ? '' : `: ${JSON.stringify(detail, null, 2)}`}`
    )
  console.log(`ok  ${message}`)
}

async function checkServer(base) {
  const origin = new URL(base).origin

  const entrypoint = await get(base)
  expect(entrypoint.status === 200, 'GET /api: 200', entrypoint)
  expect(
    entrypoint.type?.startsWith('application/ld+json'),
    'GET /api: application/ld+json',
    entrypoint.type
  )
  expect(
    entrypoint.body.book === '/api/books',
    'GET /api: the entrypoint links the books',
    entrypoint.body
  )
  expect(
    entrypoint.link?.includes(`<${origin}/api/docs.jsonld>`),
    'GET /api: Link to the API documentation under the mount path',
    entrypoint.link
  )

  const page = await get(`${base}/books?page=2`)
  const view = page.body['hydra:view']
  expect(page.status === 200, 'GET /api/books?page=2: 200', page)
  expect(
    page.body['hydra:totalItems'] === 25,
    'page 2: 25 items in all',
    page.body['hydra:totalItems']
  )
  expect(
    page.body['hydra:member'].map((m) => m['@id']).join() ===
      Array.from({ length: 10 }, (_, i) => `/api/books/${i + 11}`).join(),
    'page 2: books 11 to 20',
    page.body['hydra:member'].map((m) => m['@id'])
  )
  expect(
    view['hydra:first'] === '/api/books?page=1' &&
      view['hydra:last'] === '/api/books?page=3' &&
      view['hydra:previous'] === '/api/books?page=1' &&
      view['hydra:next'] === '/api/books?page=3',
    'page 2: first, last, previous and next under the mount path',
    view
  )
  expect(
    page.body['hydra:member'].every((m) => !('internalNote' in m)),
    'page 2: the @hidden field is not served'
  )

  const clientSize = await get(`${base}/books?itemsPerPage=20`)
  expect(
    clientSize.body['hydra:member'].length === 20,
    'itemsPerPage=20: 20 members',
    clientSize.body['hydra:member'].length
  )

  const item = await get(`${base}/books/3`)
  expect(item.status === 200, 'GET /api/books/3: 200', item)
  expect(
    item.body['@id'] === '/api/books/3' &&
      item.body.title === 'Book 3' &&
      item.body.publishedAt === '2020-01-03T00:00:00.000Z' &&
      !('internalNote' in item.body),
    'GET /api/books/3: the item, its date in ISO 8601, without the hidden field',
    item.body
  )

  const error = await get(`${base}/books?page=0`)
  expect(error.status === 400, 'GET /api/books?page=0: 400', error)
  expect(
    error.type?.startsWith('application/problem+json'),
    'page=0: application/problem+json',
    error.type
  )
  expect(
    error.body.detail === 'Page should not be less than 1',
    "page=0: the reference's message",
    error.body
  )

  const missing = await get(`${base}/books/999`)
  expect(missing.status === 404, 'GET /api/books/999: 404', missing)
  expect(
    missing.type?.startsWith('application/problem+json'),
    'books/999: application/problem+json',
    missing.type
  )

  const documentation = await get(`${base}/docs.jsonld`)
  expect(documentation.status === 200, 'GET /api/docs.jsonld: 200', documentation.status)
  expect(
    JSON.stringify(documentation.body['@type']).includes('ApiDocumentation'),
    'GET /api/docs.jsonld: a hydra:ApiDocumentation',
    documentation.body['@type']
  )
}

// ---------------------------------------------------------------------------------------------
// Source maps

function checkSourceMaps(scope) {
  let maps = 0
  const unresolved = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry)
      if (entry === 'node_modules') continue
      if (statSync(file).isDirectory()) walk(file)
      else if (entry.endsWith('.map')) {
        maps++
        const map = JSON.parse(readFileSync(file, 'utf8'))
        for (const source of map.sources) {
          const target = path.resolve(path.dirname(file), map.sourceRoot ?? '', source)
          if (!existsSync(target)) unresolved.push(`${path.relative(scope, file)} → ${source}`)
        }
      }
    }
  }
  walk(scope)
  expect(
    maps > 0 && unresolved.length === 0,
    `${maps} source maps of the installed packages resolve`,
    unresolved
  )
}
