/**
 * @module
 * The request a tool call reads: the tool's path with its key, and its arguments as the query
 * string the API reads (a list as one parameter per value, `title[]=a&title[]=b`), or the page its
 * `cursor` names, a `nextCursor` this tool answered: a page's `next` link, or the same page from
 * the first member a result within its budget did not hold (page-cursor.ts).
 */
import { samePath } from './iri-paths.js'
import { splitCursor } from './page-cursor.js'
import { ToolArgumentError } from './tool-argument-error.js'
import { CURSOR, type HydraTool } from './tool-catalog.js'

/** One value of an argument as the query string writes it. */
function text(key: string, value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value)
  throw new ToolArgumentError(`The argument ${key} takes text, a number or a boolean.`)
}

/** The request a call reads: a path and query under the mount path, and its first member. */
export interface ToolTarget {
  link: string
  /** The index, in the page, of the first member to answer (0 but for a cursor's). */
  from: number
}

/** The request (under the mount path `base`) of a call of `tool` with `args`. */
export function toolTarget(
  tool: HydraTool,
  args: Record<string, unknown>,
  base: string
): ToolTarget {
  const cursor = args[CURSOR]
  if (tool.collection && cursor !== undefined) return cursorTarget(tool, cursor, base)
  let path = tool.path
  const query = new URLSearchParams()
  for (const { key, name, in: where } of tool.arguments) {
    const value = args[key]
    if (value === undefined || value === null) {
      if (where === 'path') throw new ToolArgumentError(`The argument ${key} is required.`)
      continue
    }
    if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(text(key, value)))
    else
      for (const one of Array.isArray(value) ? value : [value]) query.append(name, text(key, one))
  }
  const search = query.toString()
  const target = `${base}${path}`
  // A key of `.` or `..` would name another path once the URL is read.
  if (!samePath(target)) throw new ToolArgumentError('The key names no item of this tool.')
  return { link: `${target}${search ? `?${search}` : ''}`, from: 0 }
}

/**
 * The page a cursor names: a link of this tool's own path under the mount path (a template's key
 * any one segment), as the page it came from wrote it, and paged.
 */
function cursorTarget(tool: HydraTool, given: unknown, base: string): ToolTarget {
  const refused = new ToolArgumentError(
    `The cursor is not one this tool answered: pass back the nextCursor of a page of ${tool.name}.`
  )
  const split = typeof given === 'string' ? splitCursor(given) : undefined
  if (!split) throw refused
  const cursor = split.link
  const pattern = `${base}${tool.path}`
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/?#]+')
  if (!new RegExp(`^${pattern}(\\?[^#]*)?$`).test(cursor)) throw refused
  if (!samePath(cursor.split('?', 1)[0] ?? '')) throw refused
  // A page link the API writes for a paged read does not turn paging off.
  const query = new URLSearchParams(cursor.slice(cursor.indexOf('?') + 1 || cursor.length))
  if ([...query.keys()].some((name) => tool.switches.has(name))) throw refused
  return split
}
