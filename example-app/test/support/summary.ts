import type { Reporter, TestModule } from 'vitest/node'
import { databaseSummary, ISOLATED_SUFFIX, type ProjectRun } from './databases.js'

/**
 * A reporter that ends every run with one line per database: what ran on it, or why nothing did
 * (not configured, blocked).
 */
export class DatabaseSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const runs: Record<string, ProjectRun> = {}
    for (const module of testModules) {
      // A database's files in a process of their own count with its others (vitest.config.ts).
      const name = module.project.name.replace(ISOLATED_SUFFIX, '')
      const run = runs[name] ?? { passed: 0, failed: 0, skipped: 0 }
      runs[name] = run
      const state = module.state()
      // A file that did not finish (an interrupted run) counts as failed.
      if (state === 'passed') run.passed++
      else if (state === 'skipped') run.skipped++
      else run.failed++
    }
    process.stdout.write(
      `\nDatabases of the end-to-end suite:\n${databaseSummary(runs)
        .map((line) => `  ${line}\n`)
        .join('')}\n`
    )
  }
}
