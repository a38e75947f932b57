#!/usr/bin/env node
// A snapshot of what the example app answers, to show that a change of the code kept its
// behaviour:
//   node scripts/behaviour.mjs record    writes behaviour/responses.json
//   node scripts/behaviour.mjs compare   prints every difference from it; exit code 1 on any
// It starts the app (scripts/behaviour-server.ts, through scripts/start.mjs) on a fresh SQLite
// database seeded as `npm start` seeds it, sends the requests of behaviour/requests.txt and keeps
// of each response its status, the headers that matter and the body. Needs `turbo run generate`.
// With BEHAVIOUR_DATABASE_URL naming a PostgreSQL or MariaDB server, the app runs on a new
// database of its own there (dropped at the end) instead: `compare` then shows what that database
// answers differently from the SQLite record. BEHAVIOUR_ENGINE=compiled runs the compiled engine.
//
// requests.txt, one request a line (`#` starts a comment):
//   <server> <METHOD> <path> [| <Header>: <value>]...
// <server> is `root` (the app as it is) or `api` (the app mounted under /api). The method WALK
// sends GET and follows `hydra:next` (or `next`) until the last page, recording every page.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'

const APP = fileURLToPath(new URL('..', import.meta.url))
const REQUESTS = path.join(APP, 'behaviour/requests.txt')
const RESPONSES = path.join(APP, 'behaviour/responses.json')
const HEADERS = ['content-type', 'link', 'vary', 'allow', 'retry-after', 'location']
const WALK_LIMIT = 100

/** The requests of requests.txt. */
async function readRequests() {
  const lines = (await readFile(REQUESTS, 'utf8')).split('\n')
  const requests = []
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim()
    if (line === '') continue
    const [head, ...headerParts] = line.split('|').map((part) => part.trim())
    const [server, method, target, ...rest] = head.split(/\s+/)
    if (!['root', 'api'].includes(server) || !method || !target?.startsWith('/') || rest.length) {
      throw new Error(
        `requests.txt:${index + 1}: expected "<root|api> <METHOD> /path", got "${raw}"`
      )
    }
    const headers = {}
    for (const part of headerParts) {
      const colon = part.indexOf(':')
      if (colon < 1) throw new Error(`requests.txt:${index + 1}: bad header "${part}"`)
      headers[part.slice(0, colon).trim()] = part.slice(colon + 1).trim()
    }
    requests.push({ server, method, target, headers })
  }
  return requests
}

/**
 * A new database for one run: on the server BEHAVIOUR_DATABASE_URL names, else a SQLite file in a
 * new folder; with what removes it.
 */
async function newDatabase() {
  const server = process.env.BEHAVIOUR_DATABASE_URL
  if (server) {
    const { url, drop } = await createScratchDatabase(server, { prefix: 'prisma_hydra_behaviour' })
    return { url, remove: drop }
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-behaviour-'))
  return {
    url: `file:${path.join(folder, 'behaviour.db')}`,
    remove: () => rm(folder, { recursive: true, force: true }),
  }
}

/** Starts the server on a new database; resolves with its origins and a stop function. */
async function startServer() {
  const database = await newDatabase()
  const child = spawn(process.execPath, ['scripts/start.mjs', 'scripts/behaviour-server.ts'], {
    cwd: APP,
    env: { ...process.env, DATABASE_URL: database.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stop = async () => {
    if (child.exitCode === null) {
      await new Promise((resolve) => {
        child.removeAllListeners('exit')
        child.on('exit', resolve)
        child.kill('SIGTERM')
      })
    }
    await database.remove()
  }
  try {
    const origins = await new Promise((resolve, reject) => {
      let output = ''
      const timer = setTimeout(() => reject(new Error(`no start after 120 s:\n${output}`)), 120000)
      const read = (chunk) => {
        output += chunk.toString()
        const match = /behaviour root=(\S+) api=(\S+)/.exec(output)
        if (match) {
          clearTimeout(timer)
          resolve({ root: match[1], api: match[2] })
        }
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      child.on('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`server exited with ${code}:\n${output}`))
      })
    })
    return { origins, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * One response as recorded: status, the headers that matter, the body (JSON parsed), with the
 * server's origin (a free port, new each run) written `http://origin`.
 */
async function capture(origin, method, target, headers) {
  const portless = (text) => text.replaceAll(origin, 'http://origin')
  const response = await fetch(origin + target, {
    method,
    headers,
    redirect: 'manual',
    signal: AbortSignal.timeout(30000),
  })
  const kept = {}
  for (const name of HEADERS) {
    const value = response.headers.get(name)
    if (value !== null) kept[name] = portless(value)
  }
  const text = portless(await response.text())
  let body = text
  if (/json/.test(kept['content-type'] ?? '') && text !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      // kept as text: a body that is not the JSON its type says is a behaviour to record too
    }
  }
  return { status: response.status, headers: kept, body }
}

/** Sends every request; WALK lines give one entry per page. */
async function run() {
  const requests = await readRequests()
  const { origins, stop } = await startServer()
  const results = []
  try {
    for (const { server, method, target, headers } of requests) {
      const label = `${server} ${method} ${target}${Object.entries(headers)
        .map(([name, value]) => ` | ${name}: ${value}`)
        .join('')}`
      if (method !== 'WALK') {
        results.push({
          request: label,
          ...(await capture(origins[server], method, target, headers)),
        })
        continue
      }
      let next = target
      for (let page = 1; next; page++) {
        if (page > WALK_LIMIT) throw new Error(`${label}: more than ${WALK_LIMIT} pages`)
        const response = await capture(origins[server], 'GET', next, headers)
        results.push({ request: `${label} #${page} ${next}`, ...response })
        const view = response.body?.['hydra:view'] ?? response.body?.view
        next = view?.['hydra:next'] ?? view?.next
      }
    }
  } finally {
    await stop()
  }
  return results
}

/** The differences between two JSON values, as lines `path: before → after`. */
function differences(before, after, at = '') {
  if (JSON.stringify(before) === JSON.stringify(after)) return []
  const bothObjects =
    before &&
    after &&
    typeof before === 'object' &&
    typeof after === 'object' &&
    Array.isArray(before) === Array.isArray(after)
  if (!bothObjects) return [`${at || '.'}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`]
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...keys].flatMap((key) =>
    differences(before[key], after[key], Array.isArray(before) ? `${at}[${key}]` : `${at}.${key}`)
  )
}

const command = process.argv[2]
if (command === 'record') {
  const results = await run()
  await writeFile(RESPONSES, `${JSON.stringify(results, null, 1)}\n`)
  console.log(`recorded ${results.length} responses to ${path.relative(process.cwd(), RESPONSES)}`)
} else if (command === 'compare') {
  const recorded = JSON.parse(await readFile(RESPONSES, 'utf8'))
  const results = await run()
  const byRequest = new Map(recorded.map((entry) => [entry.request, entry]))
  let count = 0
  for (const entry of results) {
    const before = byRequest.get(entry.request)
    byRequest.delete(entry.request)
    const lines = before ? differences(before, entry) : ['not recorded']
    if (lines.length === 0) continue
    count++
    console.log(`${entry.request}\n${lines.map((line) => `  ${line}`).join('\n')}`)
  }
  for (const request of byRequest.keys()) {
    count++
    console.log(`${request}\n  recorded, not sent any more`)
  }
  console.log(`${results.length} responses, ${count} with differences`)
  process.exit(count === 0 ? 0 : 1)
} else {
  console.error('usage: node scripts/behaviour.mjs record|compare')
  process.exit(2)
}
