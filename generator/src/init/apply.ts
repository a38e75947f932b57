/**
 * Carrying out a plan of `prisma-hydra init`: nothing at all when a file it would create is
 * there already (one line for each), every file otherwise. Files are created with the `wx` flag,
 * so that one appearing since the check is not overwritten either.
 */

import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Plan } from './plan.js'
import type { Project } from './project.js'

/** The files of `plan` that exist in `project`, one line each. */
export function existingFiles(project: Project, plan: Plan): string[] {
  return plan.create
    .filter((file) => project.exists(file.path))
    .map((file) => `${file.path}: exists; init does not overwrite files`)
}

/** Writes every file of `plan` into `project`. */
export function applyPlan(project: Project, plan: Plan): void {
  for (const file of plan.create) {
    const target = path.join(project.root, file.path)
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileSync(target, file.text, { flag: 'wx' })
  }
  for (const file of plan.update) writeFileSync(path.join(project.root, file.path), file.text)
}
