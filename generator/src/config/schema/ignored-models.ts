/**
 * Models Prisma ignores (`@@ignore`) that carry our annotations: Prisma leaves them out of the
 * DMMF and the client, so they cannot be served; without a word the annotation would just be
 * dropped. Read from the schema's text, the only place they still are.
 */
import { parseAnnotations } from '../../annotations/parse.js'
import type { Problem } from '../../problems.js'

/** A model block with the `///` lines right above it (their bodies hold no braces). */
const MODEL = /((?:^[ \t]*\/\/\/.*\r?\n)*)^[ \t]*model[ \t]+(\w+)[ \t]*\{([^}]*)\}/gm
const IGNORED = /^[ \t]*@@ignore\b/m
const OURS = new Set(['pagination', 'resource', 'operation', 'filter', 'order'])

/** A warning for each `@@ignore`d model of `schema` that carries a model annotation of ours. */
export function ignoredAnnotatedModels(schema: string): Problem[] {
  const problems: Problem[] = []
  for (const [, comments = '', name = '', body = ''] of schema.matchAll(MODEL)) {
    if (!IGNORED.test(body)) continue
    const documentation = comments
      .split('\n')
      .map((line) => line.replace(/^[ \t]*\/\/\/ ?/, ''))
      .join('\n')
    const annotation = parseAnnotations(documentation).annotations.find((found) =>
      OURS.has(found.name)
    )
    if (!annotation) continue
    problems.push({
      severity: 'warning',
      location: `Model "${name}"`,
      source: `@${annotation.name}`,
      message:
        'the model is ignored by Prisma (@@ignore): it has no client delegate, so it is not served; remove @@ignore to serve it, or the annotation',
    })
  }
  return problems
}
