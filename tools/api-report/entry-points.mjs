// The entry points whose public API has a report: every `exports` entry of the published
// packages' package.json with types (`./package.json` has none), read from the built `.d.ts` the
// entry names for `import`. The runtime's CommonJS `.d.ts` (`require`) are the same declarations
// compiled again, so one report covers both.

import path from 'node:path'
import { PACKAGE_DIRS, packageJson, root } from '../release/release-packages.mjs'

/** The types of one `exports` entry: its `import` condition's, else its own. */
function typesOf(target) {
  if (typeof target !== 'object' || target === null) return undefined
  return target.import?.types ?? target.types
}

/**
 * Every entry point with types, in package order: its package's folder and name, its report's
 * name (`index` for `.`, `node` for `./node`), the path of its built `.d.ts` and of its report
 * (`runtime/api/node.api.md`).
 */
export function entryPoints() {
  const entries = []
  for (const dir of PACKAGE_DIRS) {
    const manifest = packageJson(dir)
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const types = typesOf(target)
      if (types === undefined) continue
      const name = subpath === '.' ? 'index' : subpath.slice(2)
      entries.push({
        dir,
        packageName: manifest.name,
        version: manifest.version,
        name,
        dts: path.join(root, dir, types),
        report: path.join(dir, 'api', `${name}.api.md`),
      })
    }
  }
  return entries
}
