/**
 * Where the tests' databases are (test/support/*-database.ts make them): on the server of
 * DATABASE_URL_POSTGRES, as the rest of the suite (docs/databases.md).
 */
const configured = process.env.DATABASE_URL_POSTGRES ?? 'postgresql://postgres@127.0.0.1:5432/test'
const server = new URL(configured)

export const DATABASE = 'p8run_sql_runner'
export const SERVER_URL = new URL('/postgres', server).href
export const DATABASE_URL = new URL(`/${DATABASE}`, server).href

export const BACK_END_DATABASE = 'p8_back_end'
export const BACK_END_URL = new URL(`/${BACK_END_DATABASE}`, server).href

export const PURGES_DATABASE = 'p8purge_test'
export const PURGES_URL = new URL(`/${PURGES_DATABASE}`, server).href
