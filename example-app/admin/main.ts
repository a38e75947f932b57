/**
 * API Platform's admin over the example API, discovered from its Hydra entrypoint and
 * documentation alone: nothing here names a resource or a field. The runtime's preset
 * (`@prisma-hydra/runtime/admin`) makes it offer only the documented operations, page each list
 * as its collection pages (its page size among the sizes offered) and read the items a page
 * references in one `id[]` request; each list's filter inputs are optional (list.ts).
 * The API's address comes from `?api=` (default http://localhost:3000, where `npm start` serves
 * it).
 */
import { HydraAdmin, ResourceGuesser } from '@api-platform/admin'
import { hydraAdminPreset } from '@prisma-hydra/runtime/admin'
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { OptionalFiltersList } from './list.js'

const entrypoint = new URLSearchParams(window.location.search).get('api') ?? 'http://localhost:3000'
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// The API publishes no Mercure hub.
const preset = await hydraAdminPreset({ entrypoint, mercure: false })
// The resources, to give each its list; HydraAdmin reuses this parsed documentation. If the
// documentation cannot be read, HydraAdmin reads it again and shows why.
const resources = await preset.dataProvider.introspect().then(
  ({ data }) => data.resources ?? [],
  () => []
)

createRoot(root).render(
  createElement(
    HydraAdmin,
    { entrypoint, ...preset, title: 'Library admin' },
    ...resources.map((resource) =>
      createElement(ResourceGuesser, {
        key: resource.name,
        name: resource.name,
        list: createElement(OptionalFiltersList, {
          resource,
          rowsPerPageOptions: preset.dataProvider.rowsPerPageOptions(resource.name),
        }),
      })
    )
  )
)
