import { type Annotation, type AnnotationValue, parseAnnotations } from '../../annotations/parse.js'
import { closest, didYouMean, type Report, show } from '../../problems.js'
import {
  allWrittenOptionNames,
  canonicalOptionName,
  type PagingOptionName,
  type PagingOptions,
  pagingOptionNames,
  pagingOptionSpecs,
  readOption,
} from './options.js'

export const MODEL_ANNOTATIONS = [
  'pagination',
  'resource',
  'operation',
  'filter',
  'order',
  'changes',
] as const
export const FIELD_ANNOTATIONS = ['hidden', 'property'] as const
// An absolute IRI with an authority (`https://…`) or a URN: never a compact IRI such as
// `schema:Book`, which a context would read as a prefix and a suffix.
const IRI = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/|urn:)[^\s<>"{}|\\^`]+$/
const IRI_ALLOWED = 'an absolute IRI such as "https://schema.org/Book" (or a urn:)'
const PATH = /^(\/[A-Za-z0-9._~-]+)+$/

/** Parses a comment's annotations, reporting syntax errors and near-miss names (`@paginaton`). */
export function readAnnotations(
  documentation: string | undefined,
  known: readonly string[],
  report: Report
): Annotation[] {
  const { annotations, problems } = parseAnnotations(documentation)
  const allOurs = [...MODEL_ANNOTATIONS, ...FIELD_ANNOTATIONS] as readonly string[]
  // Other generators' annotations (`@zod.string.min(5)`) may use another syntax: only ours are read.
  for (const problem of problems) {
    const name = problem.annotation.slice(1)
    if (allOurs.includes(name))
      report({ source: problem.annotation, message: `cannot be read: ${problem.message}` })
  }
  const ours: Annotation[] = []
  for (const annotation of annotations) {
    if (known.includes(annotation.name)) {
      ours.push(annotation)
    } else if (allOurs.includes(annotation.name)) {
      report({
        source: `@${annotation.name}`,
        message: `is not allowed here; allowed: ${known.map((name) => `@${name}`).join(', ')}`,
      })
    } else {
      const suggestion = closest(annotation.name, allOurs)
      if (suggestion) {
        report({
          source: `@${annotation.name}`,
          message: `unknown annotation. Did you mean "@${suggestion}"?`,
        })
      }
    }
  }
  return ours
}

/** Reads the paging options of an annotation; keys listed in `other` belong to the annotation itself. */
export function readPagingOptions(
  annotation: Annotation,
  report: Report,
  other: readonly string[],
  source = `@${annotation.name}`
): PagingOptions {
  const options: PagingOptions = {}
  const writtenAs = new Map<PagingOptionName, string>()
  for (const { key, value } of annotation.args) {
    if (other.includes(key)) continue
    const name = canonicalOptionName(key)
    if (!name) {
      const allowed = [...other, ...pagingOptionNames]
      const hint = didYouMean(key, [...other, ...allWrittenOptionNames()])
      report({
        source,
        option: key,
        message: `unknown option.${hint} Allowed: ${allowed.join(', ')}`,
      })
      continue
    }
    const previous = writtenAs.get(name)
    if (previous) {
      report({
        source,
        option: key,
        message: `sets the same option as "${previous}"; keep one of them`,
      })
      continue
    }
    writtenAs.set(name, key)
    const parsed = readOption(name, value)
    if (!parsed.ok) {
      report({
        source,
        option: key,
        message: `must be ${pagingOptionSpecs[name].allowed}, got ${show(value)}`,
      })
      continue
    }
    Object.assign(options, { [name]: parsed.value })
    if (name === 'fetchJoinCollection' || name === 'useOutputWalkers') {
      report({
        severity: 'warning',
        source,
        option: key,
        message:
          'has no effect with Prisma: the count query counts rows of the model itself, so joined collections never inflate it',
      })
    }
  }
  return options
}

/**
 * The arguments of an annotation that are not paging options (`path`, `iri`...), by key. Unless
 * `allowPaging`, any other key is reported as unknown.
 */
export function readExtraArgs(
  annotation: Annotation | undefined,
  keys: readonly string[],
  report: Report,
  allowPaging = false
): Map<string, AnnotationValue> {
  const values = new Map<string, AnnotationValue>()
  if (!annotation) return values
  for (const { key, value } of annotation.args) {
    if (keys.includes(key)) values.set(key, value)
    else if (!allowPaging) {
      report({
        source: `@${annotation.name}`,
        option: key,
        message: `unknown option.${didYouMean(key, keys)} Allowed: ${keys.join(', ')}`,
      })
    }
  }
  return values
}

export function readIri(
  value: AnnotationValue | undefined,
  source: string,
  report: Report
): string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string' && IRI.test(value)) return value
  report({ source, option: 'iri', message: `must be ${IRI_ALLOWED}, got ${show(value)}` })
  return undefined
}

export function readPrefix(
  value: AnnotationValue | undefined,
  source: string,
  report: Report
): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value
  report({ source, option: 'hydraPrefix', message: `must be true or false, got ${show(value)}` })
  return undefined
}

export function readPath(
  value: AnnotationValue | undefined,
  annotation: Annotation | undefined,
  report: Report
): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !PATH.test(value)) {
    report({
      source: annotation ? `@${annotation.name}` : '@resource',
      option: 'path',
      message: `must be a path such as "/books" or "/books/recent" (segments of letters, digits and - _ . ~, no trailing slash), got ${show(value)}`,
    })
    return undefined
  }
  return value
}
