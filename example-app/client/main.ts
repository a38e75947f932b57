/**
 * The example's client page (docs/clients.md): the activity feed as an infinite list and the
 * authors as a paged table, each read by the page walker of `@prisma-hydra/runtime/client`
 * through TanStack Query, following the links the API writes.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { Feed } from './feed.js'
import { AuthorsTable } from './table.js'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })

createRoot(root).render(
  h(QueryClientProvider, { client: queryClient }, h('main', null, h(Feed), h(AuthorsTable)))
)
