/**
 * The line of the schema file a problem is about: where the annotation parser stopped (its line
 * and column), else the `///` line of the annotation it names, else the line declaring its model
 * or field. `prisma generate` names the model and field alone (Prisma gives a generator no
 * positions); the Prisma 8 command reads the file itself, so its messages can point at the line.
 */
import type { Problem } from '../problems.js'
import type { SourceSchema } from './psl-source.js'

const LOCATION = /^Model "([^"]+)"(?:, field "([^"]+)")?$/

/** Where the annotation parser says it stopped, in the documentation's text. */
const PARSED_AT = / \(at (?:line (\d+), )?column (\d+)\)$/

/**
 * `problem` with the file and line prepended to its location, when it names a model; a position
 * the annotation parser gives in the documentation's text becomes the file's line and column.
 */
export function withLine(problem: Problem, source: SourceSchema): Problem {
  const [, modelName, fieldName] = LOCATION.exec(problem.location) ?? []
  const model = source.models.find((candidate) => candidate.name === modelName)
  if (!model) return problem
  const field = fieldName
    ? model.fields.find((candidate) => candidate.name === fieldName)
    : undefined
  const declared = field ?? model
  const at = PARSED_AT.exec(problem.message)
  const parsed = at && declared.doc[Number(at[1] ?? 1) - 1]
  if (at && parsed) {
    const column = parsed.column + Number(at[2]) - 1
    return {
      ...problem,
      location: `${source.file}:${parsed.line}:${column}: ${problem.location}`,
      message: problem.message.slice(0, at.index),
    }
  }
  const line = annotationLine(declared.doc, problem.source) ?? declared.line
  return { ...problem, location: `${source.file}:${line}: ${problem.location}` }
}

/**
 * The line of the annotation `source` names (`@pagination`, `@operation(name: "recent")`) among
 * `doc`: the one whose arguments hold the name when several lines carry the annotation.
 */
function annotationLine(
  doc: readonly { text: string; line: number }[],
  source: string | undefined
): number | undefined {
  const name = source && /^@\w+/.exec(source)?.[0]
  if (!name) return undefined
  const carrying = doc.filter((line) => new RegExp(`^${name}\\b`).test(line.text))
  const inner = /\((.*)\)$/.exec(source)?.[1]
  const matching = inner ? carrying.find((line) => line.text.includes(inner)) : undefined
  return (matching ?? carrying[0])?.line
}
