// A walk-through's marked blocks: the fenced blocks of a doc carrying `step=<name>` (commands the
// clean-project test runs) or `file=<path>` (files it writes), in the doc's order.

import { readFileSync } from 'node:fs'

/** The fenced blocks of the doc carrying `step=` or `file=`, in order. */
function markedBlocks(markdown) {
  const blocks = []
  const fence = /^```(\S*)([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm
  for (const match of markdown.matchAll(fence)) {
    const attributes = Object.fromEntries(
      [...match[2].matchAll(/(\w+)=(\S+)/g)].map(([, key, value]) => [key, value])
    )
    if (attributes.step) blocks.push({ kind: 'step', name: attributes.step, body: match[3] })
    else if (attributes.file) blocks.push({ kind: 'file', name: attributes.file, body: match[3] })
  }
  return blocks
}

/**
 * The marked blocks of `doc`, which must hold exactly the steps `expectedSteps` in that order and
 * at least the files `expectedFiles`; a tsconfig.json among them must be strict.
 */
export function walkthroughBlocks(doc, expectedSteps, expectedFiles) {
  const blocks = markedBlocks(readFileSync(doc, 'utf8'))
  const steps = blocks.filter((b) => b.kind === 'step').map((b) => b.name)
  const files = blocks.filter((b) => b.kind === 'file').map((b) => b.name)
  if (steps.join() !== expectedSteps.join()) {
    throw new Error(
      `${doc}: expected the steps ${expectedSteps.join(', ')} in that order, found ${steps.join(', ')}`
    )
  }
  for (const file of expectedFiles) {
    if (!files.includes(file)) throw new Error(`${doc}: no block marked file=${file}`)
  }
  const tsconfig = blocks.find((b) => b.name === 'tsconfig.json')
  if (tsconfig && JSON.parse(tsconfig.body).compilerOptions?.strict !== true)
    throw new Error("the doc's tsconfig.json must be strict")
  return blocks
}

/** The lines of a step block that are commands (comments and blank lines left out). */
export function commands(body) {
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
}
