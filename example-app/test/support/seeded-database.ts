/**
 * The example's database of a test file that starts the example against it (the stopping,
 * pooler and balancer tests): a database of the file's own, its schema pushed and its rows
 * seeded before the file's tests as the example's start does, removed after them; and the pause
 * those tests wait with.
 */
import { afterAll, beforeAll } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { prepareDatabase } from '../../src/database.js'
import { createPrismaClient } from '../../src/prisma.js'
import { emptyDatabase, type TestDatabase } from './harness.js'

/** The file's database and a client of it; read them inside its tests. */
export interface SeededDatabase {
  /** Its URL, and how to remove it. */
  readonly database: TestDatabase
  /** The example's client of it, past any pooler. */
  readonly prisma: PrismaClient
}

/**
 * Registers the file's `beforeAll` that makes and seeds the database (when `wanted`: a file whose
 * tests are skipped makes none) and the `afterAll` that removes it.
 */
export function seededDatabase(wanted = true): SeededDatabase {
  let database: TestDatabase | undefined
  let prisma: PrismaClient | undefined
  beforeAll(async () => {
    if (!wanted) return
    database = await emptyDatabase()
    prisma = createPrismaClient(database.url)
    await prepareDatabase(prisma, database.url)
  })
  afterAll(async () => {
    await prisma?.$disconnect()
    await database?.remove()
  })
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the seeded database is read outside its tests')
    return value
  }
  return {
    get database() {
      return made(database)
    },
    get prisma() {
      return made(prisma)
    },
  }
}

/** Resolves after `milliseconds`. */
export const pause = (milliseconds: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, milliseconds))
