import { defineConfig } from 'vitest/config'

// Run under Node 22 (package.json's test:prisma8): Prisma 8's CLI, which the tests run, needs it.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60000,
    hookTimeout: 120000,
  },
})
