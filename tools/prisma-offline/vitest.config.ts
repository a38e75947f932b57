import { defineConfig } from 'vitest/config'

// The CLI tests start the real Prisma CLI, which takes seconds on an idle machine (`migrate diff`
// twice: 4-5 s) and eight times that or more beside the rest of CI on a loaded 2-core one, where
// the clean project, the compatibility matrix and the release versions install and build at the
// same time (the same test passed 180 s once). The bound is against a hang.
export default defineConfig({ test: { testTimeout: 600000, hookTimeout: 600000 } })
