// The run's phases: each is announced as it starts, and the time each took is printed at the end.

const started = Date.now()
const timings = []
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

/** Prints the time of every phase and of the whole run. */
export function printTimings() {
  if (phaseName) timings.push([phaseName, Date.now() - phaseStart])
  phaseName = undefined
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(30)} ${(ms / 1000).toFixed(1)} s`)
  console.log(`  ${'total'.padEnd(30)} ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
