/**
 * The embeds fixture (test/fixtures/embeds) as the declared-embed tests serve it: its schema, and
 * its routes behind the example's token check, with the errors answered as the example answers
 * them.
 */
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import {
  createHydraApp,
  type HydraAccess,
  type HydraAppOptions,
} from '#fixtures/embeds/hydra/index.js'
import { authenticate, type LibraryEnv } from '../../src/auth.js'

/** The fixture's schema, which each test pushes to a database of its own. */
export const EMBEDS_SCHEMA = new URL('../fixtures/embeds/schema.prisma', import.meta.url).pathname

/** The fixture's routes behind the token check of `secret`, with the rules and options given. */
export function embedsApp(
  secret: string,
  options: HydraAppOptions<HydraAccess<LibraryEnv>, LibraryEnv>
) {
  const app = new Hono<LibraryEnv>()
    .use(authenticate(secret))
    .route('/', createHydraApp<HydraAccess<LibraryEnv>, LibraryEnv>(options))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return app
}
