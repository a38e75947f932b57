/**
 * `@prisma-hydra/runtime/node`: what a server on Node's `node:http` adds (the rest of the runtime
 * runs on any runtime Hono does).
 *
 * @module \@prisma-hydra/runtime/node
 */
export { type ClientError, hydraClientError } from './node/client-error.js'
export { type CloseOptions, closeGracefully } from './node/close-gracefully.js'
export {
  createHydraServer,
  type FetchCallback,
  type HydraServerOptions,
} from './node/hydra-server.js'
export { HydraServerResponse } from './node/server-response.js'
