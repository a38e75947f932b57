/**
 * What `prisma-hydra init` does to package.json: writes one (an ES module package with the
 * scripts) where there is none, and otherwise adds the scripts whose names are free. A script of
 * the same name is kept as it is, and said.
 */

import path from 'node:path'
import type { Project } from './project.js'

export interface PackagePlan {
  text: string
  created: boolean
  /** The scripts added, by name. */
  added: string[]
  /** One line for each script kept with another command than init's. */
  kept: string[]
}

/** package.json with `scripts` added; the reasons it cannot be, instead. */
export function packageJsonPlan(
  project: Project,
  scripts: Record<string, string>
): PackagePlan | string[] {
  if (!project.packageJson) {
    const data = {
      name: packageName(path.basename(project.root)),
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts,
    }
    return {
      text: `${JSON.stringify(data, null, 2)}\n`,
      created: true,
      added: Object.keys(scripts),
      kept: [],
    }
  }
  const { data, indent } = project.packageJson
  if (data.type !== 'module') {
    const type = data.type === undefined ? 'no "type"' : `"type": ${JSON.stringify(data.type)}`
    return [
      `package.json: ${type}; the server and the generated routes are ES modules: run \`npm pkg set type=module\`, then init again`,
    ]
  }
  const present = isRecord(data.scripts) ? data.scripts : {}
  const added: string[] = []
  const kept: string[] = []
  const merged: Record<string, unknown> = { ...present }
  for (const [name, command] of Object.entries(scripts)) {
    if (!(name in present)) {
      merged[name] = command
      added.push(name)
    } else if (present[name] !== command) {
      kept.push(
        `package.json: script "${name}" kept as it is (${JSON.stringify(present[name])}); init's is ${JSON.stringify(command)}`
      )
    }
  }
  const text = `${JSON.stringify({ ...data, scripts: merged }, null, indent)}\n`
  return { text, created: false, added, kept }
}

/** The name of the package of `folder`: npm's rules (lower case, URL-safe characters). */
function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
  return name || 'api'
}

/** The name of the project's package without its scope, for a Worker's name. */
export function projectName(project: Project): string {
  const declared = project.packageJson?.data.name
  return typeof declared === 'string' && declared
    ? packageName(declared.replace(/^@[^/]+\//, ''))
    : packageName(path.basename(project.root))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
