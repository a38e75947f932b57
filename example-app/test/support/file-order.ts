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
 * The order the suite's files start in. Vitest's own order runs one project after the other
 * (`mysql`, then `postgresql`, then `sqlite`), so two files at a time wait on the same database
 * server while the others idle, and the `sqlite` project's long files come last. This order takes
 * the projects' files in turn, each project's in Vitest's order (the longest of the previous run,
 * else the largest, first), with the files of LONGEST before all others.
 */
export class FileOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byProject = new Map<string, TestSpecification[]>()
    for (const file of await super.sort(files)) {
      const queue = byProject.get(file.project.name) ?? []
      queue.push(file)
      byProject.set(file.project.name, queue)
    }
    const queues = [...byProject.values()]
    const inTurn: TestSpecification[] = []
    for (let index = 0; inTurn.length < files.length; index++) {
      for (const queue of queues) {
        const file = queue[index]
        if (file) inTurn.push(file)
      }
    }
    const rank = (file: TestSpecification) => {
      const at = LONGEST.indexOf(path.relative(file.project.config.root, file.moduleId))
      return at === -1 ? LONGEST.length : at
    }
    // Array.prototype.sort is stable: within a rank, the files keep their turn.
    return inTurn.sort((a, b) => rank(a) - rank(b))
  }
}
