/** A database of the tests' server, made anew (dropped first, with its connections). */
import pg from 'pg'
import { SERVER_URL } from './database-urls.js'

/** Drops the database `name` of the tests' server, if it is there, and creates it empty. */
export async function freshDatabase(name: string): Promise<void> {
  const server = new pg.Client({ connectionString: SERVER_URL })
  await server.connect()
  try {
    await server.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await server.query(`CREATE DATABASE "${name}"`)
  } finally {
    await server.end()
  }
}
