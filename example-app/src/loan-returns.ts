/**
 * A write of the example's own, under the rules of the generated reads (docs/security.md, "The
 * app's own routes"): `POST /loans/:id/return` marks a loan returned (once: returning it again
 * changes nothing). The loan must be one the caller may read, as `GET /loans/:id` decides it: its
 * guard's 401, its scope's 404.
 */
import { HydraError } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { type HydraAccess, hydraRules } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import type { LibraryEnv } from './auth.js'

/** The largest id a loan can have (an `Int` column). */
const LAST_ID = 2 ** 31 - 1

/** The loan-return route, reading `access` as createHydraApp does. */
export function loanReturns(prisma: PrismaClient, access: HydraAccess<LibraryEnv>) {
  const rules = hydraRules({ access })
  return new Hono().post('/loans/:id/return', async (c) => {
    const text = c.req.param('id')
    const id = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : Number.NaN
    const missing = new HydraError(404, `No Loan has the id "${text}".`)
    if (!(id <= LAST_ID)) throw missing
    // The guard first (a 401 or 403 problem), then the caller's scope around the route's own
    // condition: a loan the caller may not read is a missing one.
    const where = await rules.where(c, 'Loan', { id })
    const loan = await prisma.loan.findFirst({ where, select: { returnedAt: true } })
    if (!loan) throw missing
    if (!loan.returnedAt)
      await prisma.loan.update({ where: { id }, data: { returnedAt: new Date() } })
    return c.body(null, 204)
  })
}
