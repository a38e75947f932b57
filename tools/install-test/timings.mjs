// The run's phases: each is announced as it starts, and the time each took is printed at the end.

const started = Date.now()
const timings = []
const milestones = []
let phaseName
let phaseStart = started

/** Ends the current phase and starts `name`. */
export function phase(name) {
  const now = Date.now()
  if (phaseName) timings.push([phaseName, now - phaseStart])
  phaseName = name
  phaseStart = now
  console.log(`--- ${name}`)
}

/** Records the time `ms` something took across phases, printed at the end beside its target. */
export function milestone(name, ms, targetMs) {
  milestones.push([name, ms, targetMs])
  console.log(`${name}: ${(ms / 1000).toFixed(1)} s (target: under ${targetMs / 1000} s)`)
}

/** Prints the time of every phase and of the whole run, then the milestones. */
export function printTimings() {
  if (phaseName) timings.push([phaseName, Date.now() - phaseStart])
  phaseName = undefined
  const width = Math.max(30, ...timings.map(([name]) => name.length))
  for (const [name, ms] of timings)
    console.log(`  ${name.padEnd(width)} ${(ms / 1000).toFixed(1)} s`)
  console.log(`  ${'total'.padEnd(width)} ${((Date.now() - started) / 1000).toFixed(1)} s`)
  for (const [name, ms, targetMs] of milestones) {
    const verdict = ms < targetMs ? 'under' : 'OVER'
    console.log(
      `  ${name}: ${(ms / 1000).toFixed(1)} s (${verdict} the ${targetMs / 1000} s target)`
    )
  }
}
