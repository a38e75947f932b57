/**
 * API Platform's admin over the example API, discovered from its Hydra entrypoint and
 * documentation alone: nothing here names a resource or a field. Each resource's list pages as
 * its collection does and offers only what the API supports (list.ts, paging.ts).
 * The API's address comes from `?api=` (default http://localhost:3000, where `npm start` serves
 * it).
 */
import { HydraAdmin, hydraDataProvider, ResourceGuesser } from '@api-platform/admin'
import type { Resource } from '@api-platform/api-doc-parser'
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { ReadOnlyList } from './list.js'

const entrypoint = new URLSearchParams(window.location.search).get('api') ?? 'http://localhost:3000'
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// The API publishes no Mercure hub.
const dataProvider = hydraDataProvider({ entrypoint, mercure: false })
// The resources first, to give each its list; HydraAdmin reuses this parsed documentation. If the
// documentation cannot be read, HydraAdmin reads it again and shows why.
const resources: Resource[] = await dataProvider.introspect().then(
  ({ data }) => data.resources ?? [],
  () => []
)

createRoot(root).render(
  createElement(
    HydraAdmin,
    { entrypoint, dataProvider, title: 'Library admin' },
    ...resources.map((resource) =>
      createElement(ResourceGuesser, {
        key: resource.name,
        name: resource.name,
        list: createElement(ReadOnlyList, { resource }),
      })
    )
  )
)
