import type { Reporter, TestModule } from 'vitest/node'
import { databaseSummary, type ProjectRun } from './databases.js'

/**
 * A reporter that ends every run with one line per database: what ran on it, or why nothing did
 * (not configured, blocked).
 */
export class DatabaseSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const runs: Record<string, ProjectRun> = {}
    for (const module of testModules) {
      const run = runs[module.project.name] ?? { passed: 0, failed: 0, skipped: 0 }
      runs[module.project.name] = run
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
