/**
 * A script as a cron import is written (docs/caching.md#purge-on-write), in a process of its own:
 * renames book BOOK_ID to TITLE through a client extended with `hydraInvalidation`, purging over
 * HTTP at PURGE_URL, then exits with `process.exit`. With SETTLED=1 it awaits
 * `invalidation.settled()` first, as the docs say; without, the purge the write started is lost
 * with the process. Prints `written` once the write answered.
 */
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { createPrismaClient } from '../../src/prisma.js'

const { DATABASE_URL, PURGE_URL, BOOK_ID, TITLE, SETTLED } = process.env
if (!DATABASE_URL || !PURGE_URL || !BOOK_ID || !TITLE) throw new Error('missing settings')

const prisma = createPrismaClient(DATABASE_URL)
const invalidation = hydraInvalidation({ purge: httpPurge({ url: PURGE_URL }) })
const writes = prisma.$extends(invalidation)
await writes.book.update({ where: { id: Number(BOOK_ID) }, data: { title: TITLE } })
process.stdout.write('written\n')
if (SETTLED === '1') await invalidation.settled()
await prisma.$disconnect()
process.exit(0)
