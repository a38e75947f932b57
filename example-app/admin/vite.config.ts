import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/** The admin page: `npm run admin` serves it in development, the UI test builds it. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  server: { port: 5173, strictPort: true },
  logLevel: 'warn',
})
