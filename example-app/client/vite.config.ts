import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/** The example's client page (docs/clients.md): the page test builds it. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  build: { outDir: 'dist', emptyOutDir: true },
  server: { port: 5174, strictPort: true },
  logLevel: 'warn',
})
