// The packages as a user gets them: `npm pack` of the runtime and the generator (which builds
// them), the tarballs standing in for the published names in a walk-through's install commands.

import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { COMMAND_LIMIT_MS, root } from './commands.mjs'

/** Packs both packages into `work`: their tarballs by package name. */
export function packPackages(work) {
  const tarballs = {}
  for (const dir of ['runtime', 'generator']) {
    const result = spawnSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: path.join(root, dir),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: COMMAND_LIMIT_MS,
    })
    if (result.status !== 0) throw new Error(`npm pack in ${dir}: exit ${result.status}`)
    const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')))
    tarballs[packed.name] = path.join(work, packed.filename)
    console.log(`${packed.name}: ${packed.filename}, ${packed.entryCount} files`)
  }
  return tarballs
}

/** `command` with each packed package's name replaced by its tarball. */
export function withTarballs(command, tarballs) {
  let local = command
  for (const [name, tarball] of Object.entries(tarballs)) {
    local = local.replace(new RegExp(`(^|\\s)${name}(?=\\s|$)`, 'g'), `$1${tarball}`)
  }
  return local
}
