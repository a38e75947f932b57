import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/sql-runner-database.ts', 'test/support/back-end-database.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
  },
})
