/** Where sql-runner.test.ts's database is (test/support/sql-runner-database.ts makes it). */
const SERVER = process.env.PRISMA8_TEST_SERVER ?? 'postgresql://postgres@127.0.0.1:5432'

export const DATABASE = 'p8run_sql_runner'
export const SERVER_URL = `${SERVER}/postgres`
export const DATABASE_URL = `${SERVER}/${DATABASE}`
