/**
 * `@prisma-hydra/runtime/compression`: gzip or deflate of the responses past a threshold, with
 * the `ETag` and `Vary` of what is sent on the `304`s and `HEAD`s that stand for it
 * (docs/operations.md#compression). Put it before the API:
 *
 * ```ts
 * import { hydraCompression } from '@prisma-hydra/runtime/compression'
 *
 * const app = new Hono()
 *   .use(hydraCompression({ threshold: 1024 }))
 *   .route('/', createHydraApp({ prisma }))
 * ```
 *
 * @module \@prisma-hydra/runtime/compression
 */
export {
  type CompressionOptions,
  type ContentCoding,
  hydraCompression,
} from './hono/response/compression.js'
