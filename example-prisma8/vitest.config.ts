import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/sql-runner-database.ts', 'test/support/back-end-database.ts'],
    // A time zone other than UTC: a timestamp read as local time would be hours off.
    env: { TZ: 'America/New_York' },
    testTimeout: 30000,
    hookTimeout: 60000,
  },
})
