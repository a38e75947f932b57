#!/usr/bin/env node
// `prisma generate` for the example app's schema and for the end-to-end test fixtures, through
// the offline CLI wrapper. Stops at the first schema that fails.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const app = fileURLToPath(new URL('..', import.meta.url))
const schemas = [
  '../prisma/schema.prisma',
  'test/fixtures/reference/schema.prisma',
  'test/fixtures/renamed/schema.prisma',
  'test/fixtures/cursor/schema.prisma',
]
for (const schema of schemas) {
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('./prisma.mjs', import.meta.url)), 'generate', '--schema', schema],
    { cwd: app, stdio: 'inherit' }
  )
  if (result.status !== 0) process.exit(result.status ?? 1)
}
