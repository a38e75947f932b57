/**
 * `@prisma-hydra/runtime/admin`: a preset for API Platform's admin (`@api-platform/admin`, on
 * react-admin) over the API, read from its Hydra documentation: only the documented operations
 * are offered, lists page as their collections page and are labelled by the rows they show, and
 * the items a page references are read in one `id[]` request (docs/clients.md). It imports
 * `@api-platform/admin` and `react-admin`, optional peer dependencies that only an admin page
 * needs: the other entries never import this one.
 *
 * ```ts
 * import { HydraAdmin } from '@api-platform/admin'
 * import { hydraAdminPreset } from '@prisma-hydra/runtime/admin'
 *
 * const preset = await hydraAdminPreset({ entrypoint: 'http://localhost:3000', mercure: false })
 * createRoot(root).render(createElement(HydraAdmin, { entrypoint, ...preset }))
 * ```
 *
 * @module \@prisma-hydra/runtime/admin
 */
export {
  type HydraAdminPreset,
  type HydraAdminPresetOptions,
  hydraAdminPreset,
} from './admin/preset.js'
export type { HydraPresetDataProvider } from './admin/preset-data-provider.js'
