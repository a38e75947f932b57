/**
 * bench/RESULTS.md holds one section per benchmark, each between `<!-- name -->` and
 * `<!-- /name -->`: a benchmark rewrites its own section and leaves the others as they are.
 */
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import os from 'node:os'

const FILE = new URL('./RESULTS.md', import.meta.url)
const TITLE = `# Benchmark results

Each section is written by the benchmark it names; rerun that command to refresh it.
`

export async function writeSection(name: string, markdown: string): Promise<void> {
  let text = TITLE
  try {
    text = readFileSync(FILE, 'utf8')
  } catch {
    // First run: a new file.
  }
  if (!text.startsWith(TITLE)) text = TITLE
  const section = `<!-- ${name} -->\n${markdown.trim()}\n<!-- /${name} -->`
  const start = text.indexOf(`<!-- ${name} -->`)
  const endMarker = `<!-- /${name} -->`
  const end = text.indexOf(endMarker)
  text =
    start !== -1 && end > start
      ? `${text.slice(0, start)}${section}${text.slice(end + endMarker.length)}`
      : `${text.trimEnd()}\n\n${section}\n`
  await writeFile(FILE, text)
}

/**
 * The machine a figure was measured on: Node.js, CPU, cores, its load average over the last minute
 * (the development machine is shared with other work), time.
 */
export function machine(): string {
  let cpu = os.cpus()[0]?.model ?? 'unknown CPU'
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu
  } catch {
    // Not Linux: os.cpus() it is.
  }
  return `Node.js ${process.version}; ${cpu}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB; load average ${os.loadavg()[0]?.toFixed(1)}; ${new Date().toISOString()}`
}
