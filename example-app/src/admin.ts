/**
 * `npm run admin`: the example API on :3000 (allowing the admin's origin) and API Platform's admin
 * on http://localhost:5173, which discovers the API from its entrypoint and documentation.
 */
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'

const ADMIN_ORIGIN = 'http://localhost:5173'
process.env.CORS_ORIGINS ??= ADMIN_ORIGIN
await import('./main.js')

const vite = await createServer({
  configFile: fileURLToPath(new URL('../admin/vite.config.ts', import.meta.url)),
})
await vite.listen()
const api = `http://localhost:${process.env.PORT ?? 3000}`
process.stdout.write(`Admin: ${ADMIN_ORIGIN}/?api=${encodeURIComponent(api)}\n`)
