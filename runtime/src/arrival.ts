/**
 * `@prisma-hydra/runtime/arrival`: the middleware that records a request's arrival, from which
 * its time budget counts (docs/deployment.md#the-requests-budget). The API's own app starts with
 * it; an app that runs middleware of its own before the API (a session check, a shared cache,
 * compression) puts it first, so that their time counts too:
 *
 * ```ts
 * import { hydraArrival } from '@prisma-hydra/runtime/arrival'
 *
 * const app = new Hono()
 *   .use(hydraArrival())
 *   .use(session)
 *   .route('/', createHydraApp({ prisma }))
 * ```
 *
 * @module \@prisma-hydra/runtime/arrival
 */
export { hydraArrival } from './hono/request/arrival.js'
