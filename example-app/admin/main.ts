/**
 * API Platform's admin over the example API, discovered from its Hydra entrypoint and
 * documentation alone: nothing here names a resource or a field. The API's address comes from
 * `?api=` (default http://localhost:3000, where `npm start` serves it).
 */
import { HydraAdmin } from '@api-platform/admin'
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'

const entrypoint = new URLSearchParams(window.location.search).get('api') ?? 'http://localhost:3000'
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(createElement(HydraAdmin, { entrypoint, title: 'Library admin' }))
