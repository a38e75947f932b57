// Following a walk-through: its `file=` blocks written into the project, its `step=` blocks run
// there, in the doc's order, up to the first `start` or `start-<name>` step (a server, which the
// caller starts).

import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { run, userEnvironment } from './commands.mjs'
import { commands } from './doc-blocks.mjs'
import { withTarballs } from './packages.mjs'
import { phase } from './timings.mjs'

/**
 * Writes and runs `blocks` in `project`, stopping before a `start` or `start-<name>` step; returns
 * the blocks left.
 * `tarballs` replace the release tarballs commands name; `envFor(step)` adds to a step's environment;
 * `rewrite(text)` is applied to every file and command (the server's real address, say); `label`
 * starts the name of each phase.
 */
export async function followBlocks(blocks, project, options) {
  const { tarballs, envFor = () => ({}), rewrite = (text) => text, label = '' } = options
  for (const [index, block] of blocks.entries()) {
    if (block.kind === 'file') {
      phase(`${label}write ${block.name}`)
      mkdirSync(path.dirname(path.join(project, block.name)), { recursive: true })
      writeFileSync(path.join(project, block.name), rewrite(block.body))
      continue
    }
    if (block.name === 'start' || block.name.startsWith('start-')) return blocks.slice(index)
    phase(`${label}step ${block.name}`)
    for (const command of commands(block.body)) {
      await run(
        rewrite(withTarballs(command, tarballs)),
        project,
        userEnvironment(envFor(block.name))
      )
    }
  }
  return []
}
