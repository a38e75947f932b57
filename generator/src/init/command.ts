/**
 * `prisma-hydra init` and `prisma-hydra --help`, as the package's bin runs them when given
 * arguments: reads the project in the current folder, plans, refuses or writes, and says so.
 * Resolves to the exit code: 0 done, 1 refused (nothing written), 2 a wrong command line.
 */

import { processOutput } from '../command-output.js'
import { applyPlan, existingFiles } from './apply.js'
import { parseCommand, USAGE } from './args.js'
import { planInit } from './plan.js'
import { readProject } from './project.js'
import { reportLines } from './report.js'

/** Runs the command line `args` in the folder `cwd`. */
export function runCommand(args: string[], cwd: string, output = processOutput): number {
  const command = parseCommand(args)
  if (command.kind === 'help') {
    output.out(USAGE)
    return 0
  }
  if (command.kind === 'usage-error') {
    output.err(`prisma-hydra: ${command.message}\n`)
    output.err(USAGE)
    return 2
  }
  let project: ReturnType<typeof readProject>
  try {
    project = readProject(cwd)
  } catch (error) {
    output.err(`prisma-hydra init: ${(error as Error).message}`)
    return 1
  }
  const plan = planInit(project, command.runtime)
  const refusals = Array.isArray(plan) ? plan : existingFiles(project, plan)
  if (Array.isArray(plan) || refusals.length > 0) {
    for (const line of refusals) output.err(line)
    output.err('prisma-hydra init wrote nothing.')
    return 1
  }
  applyPlan(project, plan)
  for (const line of reportLines(plan, command.runtime)) output.out(line)
  return 0
}
