import { defineConfig } from 'vitest/config'

// The CLI tests start the real Prisma CLI, which takes seconds on an idle machine and up to 45 s
// a run beside the rest of CI on a loaded 2-core one, where a test running it twice passed 60 s.
export default defineConfig({ test: { testTimeout: 180000, hookTimeout: 180000 } })
