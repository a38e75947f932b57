import { defineConfig } from 'vitest/config'

// Run under Node 22 (package.json's test:prisma8): Prisma 8's CLI, which the tests run, needs it.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The example's contract first: the back end's database is read with it.
    globalSetup: [
      'test/global-setup.ts',
      'test/support/sql-runner-database.ts',
      'test/support/back-end-database.ts',
    ],
    // A time zone other than UTC: a timestamp read as local time would be hours off.
    env: { TZ: 'America/New_York' },
    testTimeout: 60000,
    hookTimeout: 120000,
  },
})
