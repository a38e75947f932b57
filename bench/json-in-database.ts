/**
 * Where a page's members are cheapest to write as JSON: in the server's process, from the rows a
 * statement reads (what both engines do), or by the database, its statement answering the
 * members' array as one text. One page of the events of bench/setup.ts (page 2, 30 a page, 31 rows
 * read: the page and one to know a next page exists), read three ways on each database:
 *
 * - rows: the page's statement, its rows as arrays (what the compiled engine reads);
 * - rows, then members: those rows made members (`@id`, `@type`, the fields, the date-time as the
 *   contract writes it) and written by `JSON.stringify`, as hydra/page-document.ts writes them;
 * - JSON by the database: the same members written by the database's own JSON functions
 *   (`json_object`, `json_build_object`, `JSON_OBJECT`), read as one text.
 *
 * Each way reads the page BENCH_JSON_READS times (2000) one after another on one connection, the
 * three taking turns for BENCH_JSON_ROUNDS rounds (5); the median of the rounds is printed, in µs
 * a page, with whether the database's text has the same bytes (it must hold the same members: the
 * script stops otherwise).
 *
 *   npm run bench:json
 *   BENCH_POSTGRES_URL=postgres://… BENCH_MARIADB_URL=mysql://… npm run bench:json
 *
 * SQLite always; PostgreSQL and MariaDB when their URL is set (the events' database of
 * bench:peers on that server, built first when missing).
 */
import { isDeepStrictEqual } from 'node:util'
import Database from 'better-sqlite3'
import { createConnection } from 'mariadb'
import pg from 'pg'
import { integers } from './load.js'
import { prepareDatabase } from './setup.js'
import { prepareMariadbDatabase, preparePostgresDatabase } from './setup-servers.js'

const ROWS = 10_000
const [READS = 2000] = integers('BENCH_JSON_READS', '2000')
const [ROUNDS = 5] = integers('BENCH_JSON_ROUNDS', '5')
const PAGE = 'ORDER BY "createdAt" DESC, "id" DESC LIMIT 31 OFFSET 30'

/** One database: its page's statement, the same page's members as JSON, and how to run them. */
interface Reader {
  name: string
  rows: () => Promise<unknown[][]> | unknown[][]
  json: () => Promise<string> | string
  /** A date-time as the driver reads it, as the contract writes it. */
  dateTime: (value: string) => string
  close: () => Promise<void> | void
}

/** A date-time of the server drivers' text (`YYYY-MM-DD HH:MM:SS[.fff]`, UTC) as ISO text. */
const serverDateTime = (text: string) => new Date(`${text.replace(' ', 'T')}Z`).toISOString()

function sqlite(url: string): Reader {
  const db = new Database(url.replace(/^file:/, ''), { readonly: true })
  const page = `SELECT "id", "createdAt", "payload" FROM "Event" ${PAGE}`
  const rows = db.prepare(page).raw()
  const json = db
    .prepare(
      `SELECT json_group_array(json_object('@id', '/events/' || "id", '@type', 'Event', 'id', "id", 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', "createdAt"), 'payload', "payload")) FROM (${page})`
    )
    .pluck()
  return {
    name: 'SQLite',
    rows: () => rows.all() as unknown[][],
    json: () => json.get() as string,
    dateTime: (text) => new Date(text).toISOString(),
    close: () => {
      db.close()
    },
  }
}

async function postgres(url: string): Promise<Reader> {
  const client = new pg.Client({ connectionString: url, types: { getTypeParser: () => String } })
  await client.connect()
  const page = `SELECT "id", "createdAt", "payload" FROM "Event" ${PAGE}`
  const iso = `to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
  const json = `SELECT json_agg(json_build_object('@id', '/events/' || "id", '@type', 'Event', 'id', "id", 'createdAt', ${iso}, 'payload', "payload") ORDER BY "createdAt" DESC, "id" DESC)::text AS "members" FROM (${page}) AS "p"`
  return {
    name: 'PostgreSQL',
    rows: async () =>
      (await client.query({ name: 'rows', text: page, rowMode: 'array' })).rows.map(
        ([id, ...rest]) => [Number(id), ...rest]
      ),
    json: async () => (await client.query({ name: 'json', text: json })).rows[0].members,
    dateTime: serverDateTime,
    close: () => client.end(),
  }
}

async function mariadb(url: string): Promise<Reader> {
  const { hostname, port, username, password, pathname } = new URL(url)
  const connection = await createConnection({
    host: hostname,
    port: Number(port || 3306),
    user: decodeURIComponent(username),
    password: decodeURIComponent(password),
    database: pathname.slice(1),
    dateStrings: true,
    // The members' text as the server writes it, not parsed by the driver.
    autoJsonMap: false,
  })
  const page = PAGE.replaceAll('"', '`')
  const rows = `SELECT \`id\`, \`createdAt\`, \`payload\` FROM \`Event\` ${page}`
  const iso = `CONCAT(DATE_FORMAT(\`createdAt\`, '%Y-%m-%dT%H:%i:%s.'), LPAD(MICROSECOND(\`createdAt\`) DIV 1000, 3, '0'), 'Z')`
  const json = `SELECT JSON_ARRAYAGG(JSON_OBJECT('@id', CONCAT('/events/', \`id\`), '@type', 'Event', 'id', \`id\`, 'createdAt', ${iso}, 'payload', \`payload\`) ORDER BY \`createdAt\` DESC, \`id\` DESC) AS members FROM (${rows}) AS p`
  return {
    name: 'MariaDB',
    rows: () => connection.execute({ sql: rows, rowsAsArray: true }),
    json: async () =>
      ((await connection.execute(json)) as Array<{ members: string }>)[0]?.members ?? '',
    dateTime: serverDateTime,
    close: () => connection.end(),
  }
}

/** The members of `rows` as the generated route writes them. */
const membersOf = (reader: Reader, rows: unknown[][]) =>
  JSON.stringify(
    rows.map(([id, createdAt, payload]) => ({
      '@id': `/events/${id}`,
      '@type': 'Event',
      id,
      createdAt: reader.dateTime(String(createdAt)),
      payload,
    }))
  )

/** µs a page of `read`, over READS reads. */
async function timed(read: () => unknown): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < READS; i++) await read()
  return ((performance.now() - start) * 1000) / READS
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0

async function measure(reader: Reader): Promise<string> {
  const inProcess = membersOf(reader, await reader.rows())
  const byDatabase = await reader.json()
  const same = isDeepStrictEqual(JSON.parse(byDatabase), JSON.parse(inProcess))
  if (!same)
    throw new Error(`${reader.name}: the database's members differ:\n${byDatabase.slice(0, 300)}`)
  const ways = [
    () => reader.rows(),
    async () => membersOf(reader, await reader.rows()),
    () => reader.json(),
  ]
  const times: number[][] = ways.map(() => [])
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, way] of ways.entries()) times[index]?.push(await timed(way))
  const [rows, members, json] = times.map((values) => median(values).toFixed(0))
  const bytes =
    byDatabase === inProcess ? 'yes' : `no (${byDatabase.length} against ${inProcess.length})`
  return `| ${reader.name} | ${rows} | ${members} | ${json} | ${bytes} |`
}

const readers: Array<() => Promise<Reader>> = [
  async () => sqlite((await prepareDatabase(ROWS)).url),
]
const { BENCH_POSTGRES_URL, BENCH_MARIADB_URL } = process.env
if (BENCH_POSTGRES_URL)
  readers.push(async () => postgres((await preparePostgresDatabase(BENCH_POSTGRES_URL, ROWS)).url))
if (BENCH_MARIADB_URL)
  readers.push(async () => mariadb((await prepareMariadbDatabase(BENCH_MARIADB_URL, ROWS)).url))

const lines = [
  `A page of 30 events (31 rows read), ${ROWS.toLocaleString('en')} rows, µs a page, median of ${ROUNDS} rounds of ${READS} reads (${new Date().toISOString()}):`,
  '',
  '| database | rows | rows, then members written in process | JSON by the database | the same bytes |',
  '|---|---:|---:|---:|---|',
]
for (const open of readers) {
  const reader = await open()
  try {
    lines.push(await measure(reader))
  } finally {
    await reader.close()
  }
}
console.log(lines.join('\n'))
