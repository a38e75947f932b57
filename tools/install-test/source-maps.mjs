// The source maps of the installed packages: each names sources that exist in the package.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect } from './expect.mjs'

/** Checks every `.map` file under `scope` (the project's `node_modules/@prisma-hydra`). */
export function checkSourceMaps(scope) {
  let maps = 0
  const unresolved = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry)
      if (entry === 'node_modules') continue
      if (statSync(file).isDirectory()) walk(file)
      else if (entry.endsWith('.map')) {
        maps++
        const map = JSON.parse(readFileSync(file, 'utf8'))
        for (const source of map.sources) {
          const target = path.resolve(path.dirname(file), map.sourceRoot ?? '', source)
          if (!existsSync(target)) unresolved.push(`${path.relative(scope, file)} → ${source}`)
        }
      }
    }
  }
  walk(scope)
  expect(
    maps > 0 && unresolved.length === 0,
    `${maps} source maps of the installed packages resolve`,
    unresolved
  )
}
