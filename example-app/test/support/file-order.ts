import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that take minutes where most take seconds (CONTRIBUTING.md, "Tests"): started first, so
 * that none of them is left running alone at the end of the run while the other workers idle.
 * Without Vitest's record of a previous run (a fresh clone, as CI is) files are otherwise ordered
 * by size, which puts several of these late.
 */
const LONGEST = [
  'test/admin.e2e.test.ts',
  'test/client-options.e2e.test.ts',
  'test/fuzz.e2e.test.ts',
  'test/leak-hunter.e2e.test.ts',
  'test/workers-cache.e2e.test.ts',
  'test/runtimes.e2e.test.ts',
]

/**
 * The order the suite's files start in: the files of LONGEST before all others, then Vitest's
 * own order, a project's files together (the longest of the previous run, else the largest,
 * first), so that a worker process that stays (`isolate: false`) takes one file after another of
 * its project.
 */
export class FileOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.indexOf(path.relative(file.project.config.root, file.moduleId))
      return at === -1 ? LONGEST.length : at
    }
    // Array.prototype.sort is stable: within a rank, the files keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}
