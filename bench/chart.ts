/**
 * Bar charts of benchmark figures as SVG text: a pure function of the numbers a benchmark also
 * writes into bench/RESULTS.md, so the image and the table cannot disagree. Horizontal bars on a
 * linear scale from zero, grouped, one colour per series, each bar labelled with its value.
 */

export interface BarChart {
  title: string
  /** What the bars measure, under the title: 'requests per second (higher is better)'. */
  subtitle: string
  /** One name and colour per bar of a group; the legend shows them when there are several. */
  series: readonly string[]
  /** One row label and one value per series (undefined: no bar). */
  groups: readonly { label: string; values: readonly (number | undefined)[] }[]
  format: (value: number) => string
  /** The axis's tick labels (default: `format`). */
  tickFormat?: (value: number) => string
}

const WIDTH = 760
const LABEL_WIDTH = 190
const VALUE_ROOM = 90
const BAR = 18
const BAR_GAP = 3
const GROUP_GAP = 14
const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b07aa1']
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"'

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A round step (1, 2 or 5 × 10^k) giving about `count` ticks up to `max`. */
export function tickStep(max: number, count = 5): number {
  if (!(max > 0)) return 1
  const raw = max / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].find((factor) => factor * power >= raw) ?? 10
  return step * power
}

/** One chart panel starting at `top`; returns its SVG elements and height. */
function panel(chart: BarChart, top: number): { svg: string[]; height: number } {
  const svg: string[] = []
  let y = top + 22
  svg.push(`<text x="16" y="${y}" font-size="16" font-weight="600">${xml(chart.title)}</text>`)
  y += 20
  svg.push(`<text x="16" y="${y}" font-size="12" fill="#555">${xml(chart.subtitle)}</text>`)
  if (chart.series.length > 1) {
    y += 22
    let x = LABEL_WIDTH
    chart.series.forEach((name, index) => {
      svg.push(
        `<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${COLOURS[index % COLOURS.length]}"/>`,
        `<text x="${x + 17}" y="${y}" font-size="12">${xml(name)}</text>`
      )
      x += 30 + name.length * 7
    })
  }
  y += 16
  const values = chart.groups.flatMap((group) =>
    group.values.filter((value): value is number => value !== undefined)
  )
  const step = tickStep(Math.max(...values, 0))
  const max = Math.max(step, Math.ceil(Math.max(...values, 0) / step) * step)
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_ROOM
  const scale = (value: number) => (value / max) * plotWidth
  const plotTop = y
  const bars: string[] = []
  for (const group of chart.groups) {
    const groupHeight = chart.series.length * (BAR + BAR_GAP) - BAR_GAP
    bars.push(
      `<text x="${LABEL_WIDTH - 10}" y="${y + groupHeight / 2 + 4}" font-size="12" text-anchor="end">${xml(group.label)}</text>`
    )
    group.values.forEach((value, index) => {
      const barTop = y + index * (BAR + BAR_GAP)
      if (value === undefined) return
      const width = Math.max(scale(value), 0.5)
      bars.push(
        `<rect x="${LABEL_WIDTH}" y="${barTop}" width="${width.toFixed(1)}" height="${BAR}" fill="${COLOURS[index % COLOURS.length]}"><title>${xml(`${group.label}, ${chart.series[index] ?? ''}: ${chart.format(value)}`)}</title></rect>`,
        `<text x="${(LABEL_WIDTH + width + 5).toFixed(1)}" y="${barTop + BAR / 2 + 4}" font-size="11">${xml(chart.format(value))}</text>`
      )
    })
    y += groupHeight + GROUP_GAP
  }
  const plotBottom = y - GROUP_GAP + 6
  for (let index = 0; index * step <= max + step / 1e6; index++) {
    const tick = Number((index * step).toPrecision(12))
    const x = (LABEL_WIDTH + scale(tick)).toFixed(1)
    svg.push(
      `<line x1="${x}" y1="${plotTop - 4}" x2="${x}" y2="${plotBottom}" stroke="#ddd"/>`,
      `<text x="${x}" y="${plotBottom + 14}" font-size="10" fill="#555" text-anchor="middle">${xml((chart.tickFormat ?? chart.format)(tick))}</text>`
    )
  }
  svg.push(...bars)
  return { svg, height: plotBottom + 24 - top }
}

/** The charts one above the other in one SVG document. */
export function barCharts(charts: readonly BarChart[]): string {
  const body: string[] = []
  let height = 0
  for (const chart of charts) {
    const { svg, height: panelHeight } = panel(chart, height)
    body.push(...svg)
    height += panelHeight + 8
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT}>`,
    `<title>${xml(charts.map((chart) => chart.title).join('; '))}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n')
}
