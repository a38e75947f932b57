import { defineConfig } from 'vitest/config'

// The CLI tests start the real Prisma CLI, which takes seconds on a loaded machine.
export default defineConfig({ test: { testTimeout: 60000, hookTimeout: 120000 } })
