/**
 * `npm start` as a newcomer runs it (scripts/start.mjs), with DATABASE_URL the only setting: the
 * server creates and seeds its database (an empty SQLite file, or an empty PostgreSQL or MariaDB
 * database in the `postgresql` and `mysql` test projects: a `mysql://` URL), prints the URLs to
 * try, and serves them. A second start reuses the database.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emptyDatabase, type TestDatabase } from './support/harness.js'
import { sendRaw } from './support/raw-http.js'

const APP = new URL('..', import.meta.url).pathname

let database: TestDatabase

beforeAll(async () => {
  database = await emptyDatabase()
})

afterAll(async () => {
  await database?.remove()
})

/** Runs `npm start`'s script and resolves with its output once it has printed the URLs to try. */
function start(): Promise<{ child: ChildProcess; output: string; origin: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: APP,
    env: { ...process.env, PORT: '0', DATABASE_URL: database.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`no banner after 60 s:\n${output}`)), 60000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const origin = /on (http:\/\/localhost:\d+)/.exec(output)?.[1]
      if (origin && output.includes('/books/1')) {
        clearTimeout(timer)
        resolve({ child, output, origin })
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit')
    child.on('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

describe('npm start', () => {
  it('creates, seeds and serves the database, then reuses it', async () => {
    const first = await start()
    try {
      expect(first.output).toContain(
        `(database ${database.url}, seeded: authors, books, reviews, languages, loans, activities, users)`
      )
      expect(first.output).toContain(`curl '${first.origin}/books?page=2'`)
      const response = await fetch(`${first.origin}/books?page=2`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as { 'hydra:view': Record<string, string> }
      expect(body['hydra:view']['hydra:next']).toBe('/books?page=3')
      // What Node's parser refuses is a problem too (curl sends raw UTF-8 as it is typed).
      const raw = await sendRaw(
        first.origin,
        Buffer.from('GET /authors?name=zo\u00eb HTTP/1.1\r\nHost: localhost\r\n\r\n', 'utf8')
      )
      expect(raw.status).toBe(400)
      expect(raw.headers['content-type']).toMatch(/^application\/problem\+json/)
      // Without ALLOWED_HOSTS or API_BASE_URL, this machine's hosts only.
      const forged = await sendRaw(
        first.origin,
        'GET /books HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n'
      )
      expect(forged.status).toBe(400)
      expect(forged.body).not.toContain('evil.example')
    } finally {
      await stop(first.child)
    }
    const second = await start()
    try {
      expect(second.output).not.toContain('seeded')
      expect((await fetch(`${second.origin}/authors/1`)).status).toBe(200)
    } finally {
      await stop(second.child)
    }
  })
})

describe('npm start on a database that cannot be used', () => {
  it.each([
    [
      'postgres://app:secret@127.0.0.1:1/shop',
      "The database postgres://app:***@127.0.0.1:1/shop cannot be used: Can't reach database server at 127.0.0.1:1",
    ],
    // The MariaDB driver retries a refused connection until its pool gives up.
    [
      'mysql://app:secret@127.0.0.1:1/shop',
      'The database mysql://app:***@127.0.0.1:1/shop cannot be used: ',
    ],
    [
      'file:./no/such/folder/shop.db',
      'The database file:./no/such/folder/shop.db cannot be used: Cannot open database because the directory does not exist',
    ],
  ])('stops at once with one line naming %s', (url, line) => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: APP,
      env: { ...process.env, PORT: '0', DATABASE_URL: url },
      encoding: 'utf8',
      timeout: 60_000,
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output).toBe(1)
    expect(output.startsWith(line), output).toBe(true)
    expect(output.trim().split('\n')).toHaveLength(1)
    expect(output).not.toContain('secret')
  })
})
