import { defaultFilterParameterNames } from '@prisma-hydra/runtime/defaults'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { didYouMean, type Problem, show } from '../../problems.js'
import {
  defaultParameterNames,
  type PagingOptions,
  type ParameterNames,
  pagingOptionNames,
  pagingOptionSpecs,
  parameterNameAllowed,
  parameterNameKeys,
  parameterNameSchema,
} from '../schema/options.js'
import {
  CACHE_HEADERS_ALLOWED,
  CACHE_SECONDS,
  type CacheHeaderKey,
  type CacheHeaders,
  cacheHeaderAllowed,
  cacheHeaderKeys,
  cacheHeadersConflict,
} from './cache-headers.js'

/** Global configuration: `platform.defaults` and `platform.collection.pagination` of the platform file. */
export interface GlobalConfig {
  /** `platform.defaults`: the paging options every resource starts from. */
  defaults: PagingOptions
  /** `platform.collection.pagination`: the paging parameters' names. */
  parameters: ParameterNames
  /** `platform.collection.order_parameter_name` and `exists_parameter_name` (API Platform's). */
  filterParameters: {
    /** The order parameter's name (default `order`). */
    order: string
    /** The exists filter's parameter name (default `exists`). */
    exists: string
  }
  /** `platform.serializer.hydra_prefix`: whether Hydra keys carry `hydra:` (default true). */
  hydraPrefix?: boolean
  /** `platform.title` and `platform.description`: the API documentation's title and description. */
  title?: string
  /** `platform.description`. */
  description?: string
  /** `platform.defaults.cache_headers`: every resource's `Cache-Control` unless it sets its own. */
  cacheHeaders?: CacheHeaders
}

export const emptyGlobalConfig: GlobalConfig = {
  defaults: {},
  parameters: defaultParameterNames,
  filterParameters: defaultFilterParameterNames,
}

/** The global names of the order and exists parameters, as API Platform's configuration keys. */
const filterParameterKeys = [
  ['order', 'order_parameter_name'],
  ['exists', 'exists_parameter_name'],
] as const

const globalOptions = pagingOptionNames.flatMap((name) => {
  const key = pagingOptionSpecs[name].globalKey
  return key ? [{ name, key }] : []
})
const parameterNames = Object.entries(parameterNameKeys) as Array<[keyof ParameterNames, string]>

// Each schema's description is what a message says the value must be ("must be true or false").
const text = z.string().regex(/\S/).describe('a non-empty string')

const cacheHeaderEntries = Object.entries(cacheHeaderKeys) as Array<
  [CacheHeaderKey, (typeof cacheHeaderKeys)[CacheHeaderKey]]
>

/** `cache_headers`: API Platform's key and its snake_case names (config/paging/cache-headers.ts). */
const cacheHeaders = z
  .strictObject(
    Object.fromEntries(
      cacheHeaderEntries.map(([name, { globalKey }]) => [
        globalKey,
        (cacheHeaderKeys[name].kind === 'flag'
          ? z.boolean()
          : z.number().int().min(CACHE_SECONDS.min).max(CACHE_SECONDS.max)
        )
          .describe(cacheHeaderAllowed(name))
          .optional(),
      ])
    )
  )
  .superRefine((section, context) => {
    const conflict = cacheHeadersConflict({
      public: section.public as boolean | undefined,
      sharedMaxAge: section.shared_max_age as number | undefined,
    })
    if (conflict)
      context.addIssue({
        code: 'custom',
        path: ['shared_max_age'],
        message: conflict.replace('sharedMaxAge', 'shared_max_age'),
      })
  })
  .describe(
    CACHE_HEADERS_ALLOWED.replace(
      /maxAge|sharedMaxAge|staleWhileRevalidate|staleIfError|mustRevalidate/g,
      (key) => cacheHeaderKeys[key as CacheHeaderKey].globalKey
    ).replace(', or null for none', '')
  )

const defaults = z
  .strictObject({
    ...Object.fromEntries(
      globalOptions.map(({ name, key }) => {
        const spec = pagingOptionSpecs[name]
        return [key, spec.schema.describe(spec.allowed).optional()]
      })
    ),
    cache_headers: cacheHeaders.optional(),
  })
  .describe('a mapping of option names to values')

const pagination = z
  .strictObject(
    Object.fromEntries(
      parameterNames.map(([, key]) => [
        key,
        parameterNameSchema.describe(parameterNameAllowed).optional(),
      ])
    )
  )
  .superRefine((section, context) => {
    const seen = new Map<string, string>()
    for (const [name, key] of parameterNames) {
      const value = section[key] ?? defaultParameterNames[name]
      const other = seen.get(value)
      if (other) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `"${value}" is already the name of ${other}; each parameter needs its own name`,
        })
      }
      seen.set(value, key)
    }
  })
  .describe('a mapping of parameter names')

/** The platform file: every key, its value's check and its message's words in one schema. */
const platformFile = z.object({
  platform: z.strictObject({
    title: text.optional(),
    description: text.optional(),
    defaults: defaults.optional(),
    collection: z
      .strictObject({
        pagination: pagination.optional(),
        order_parameter_name: parameterNameSchema.describe(parameterNameAllowed).optional(),
        exists_parameter_name: parameterNameSchema.describe(parameterNameAllowed).optional(),
      })
      .superRefine((section, context) => {
        const taken = new Map<string, string>(
          parameterNames.map(([name, key]) => [
            section.pagination?.[key] ?? defaultParameterNames[name],
            `the ${name} parameter`,
          ])
        )
        for (const [name, key] of filterParameterKeys) {
          const value = section[key] ?? defaultFilterParameterNames[name]
          const other = taken.get(value)
          if (other) {
            context.addIssue({
              code: 'custom',
              path: [key],
              message: `"${value}" is already the name of ${other}; each parameter needs its own name`,
            })
          }
          taken.set(value, `the ${name} parameter`)
        }
      })
      .describe('a mapping holding "pagination", "order_parameter_name" or "exists_parameter_name"')
      .optional(),
    serializer: z
      .strictObject({ hydra_prefix: z.boolean().describe('true or false').optional() })
      .describe('a mapping holding "hydra_prefix"')
      .optional(),
  }),
})
type PlatformFile = z.output<typeof platformFile>

const ROOT_MESSAGE =
  'the root key must be "platform", holding "defaults", "collection", "serializer", "title" or "description"'

/**
 * Reads the platform config file's text (YAML, or JSON, which is YAML too). Pure: the caller reads
 * the file. Every problem is returned; the config holds whatever was valid.
 */
export function parseGlobalConfig(
  text: string,
  label: string
): {
  /** The configuration: what was valid, over the defaults. */
  config: GlobalConfig
  /** Every problem found. */
  problems: Problem[]
} {
  const location = `platform config (${label})`
  let document: unknown
  try {
    document = parseYaml(text)
  } catch (error) {
    const message = `is not valid YAML or JSON: ${(error as Error).message}`
    return {
      config: emptyGlobalConfig,
      problems: [{ severity: 'error', location, source: 'file', message }],
    }
  }
  const { file, issues } = validate(document)
  const problems = issues
    .map((issue) => ({ issue, rank: rankOf(issue) }))
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .flatMap(({ issue }) => toProblems(issue, location))
  return { config: file ? toConfig(file) : emptyGlobalConfig, problems }
}

/**
 * Validates the document, then again without the values found wrong, until what is left is valid:
 * every problem is found (zod skips a section's own checks while its values are wrong) and the
 * config keeps whatever was valid.
 */
function validate(document: unknown): {
  file: PlatformFile | undefined
  issues: z.core.$ZodIssue[]
} {
  const issues: z.core.$ZodIssue[] = []
  const seen = new Set<string>()
  const current = structuredClone(document)
  for (;;) {
    const result = platformFile.safeParse(current, { reportInput: true })
    if (result.success) return { file: result.data, issues }
    let pruned = false
    for (const issue of result.error.issues) {
      const id = JSON.stringify([issue.code, issue.path, issue.message])
      if (!seen.has(id)) issues.push(issue)
      seen.add(id)
      if (issue.path.length < 2) return { file: undefined, issues }
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.at(-1)]
      const parent = issue.code === 'unrecognized_keys' ? issue.path : issue.path.slice(0, -1)
      const section = valueAt(current, parent) as Record<PropertyKey, unknown>
      for (const key of keys) {
        if (key !== undefined && Object.hasOwn(section, key)) {
          delete section[key]
          pruned = true
        }
      }
    }
    // A clash with a default cannot be pruned away: the problems are all known.
    if (!pruned) return { file: undefined, issues }
  }
}

function toProblems(issue: z.core.$ZodIssue, location: string): Problem[] {
  const path = issue.path.map(String)
  const problem = (source: string, message: string, option?: string): Problem => ({
    severity: 'error',
    location,
    source,
    message,
    ...(option ? { option } : {}),
  })
  if (issue.code === 'unrecognized_keys') {
    const allowed = Object.keys(shapeAt(path))
    return issue.keys.map((key) =>
      problem(
        path.join('.'),
        `unknown key.${didYouMean(key, allowed)} Allowed: ${allowed.join(', ')}`,
        key
      )
    )
  }
  if (issue.code === 'invalid_type' && issue.expected === 'object') {
    if (path.length < 2) return [problem('file', ROOT_MESSAGE)]
    return [problem(path.join('.'), `must be ${schemaAt(path).description}`)]
  }
  const source = path.slice(0, -1).join('.')
  const option = path.at(-1)
  if (issue.code === 'custom' && issue.message) return [problem(source, issue.message, option)]
  return [
    problem(source, `must be ${schemaAt(path).description}, got ${show(issue.input)}`, option),
  ]
}

/**
 * Where an issue's value stands in the schema, as the position of each key of its path: problems
 * are listed in that order, a section's unknown keys before its values.
 */
function rankOf(issue: z.core.$ZodIssue): number[] {
  const path = issue.path.map(String)
  const rank = path.map((key, index) => Object.keys(shapeAt(path.slice(0, index))).indexOf(key))
  return issue.code === 'unrecognized_keys' ? [...rank, -1] : rank
}

function compareRanks(a: number[], b: number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const difference = (a[index] as number) - (b[index] as number)
    if (difference !== 0) return difference
  }
  return a.length - b.length
}

/** The schema of the value at `path`, without its `.optional()`. */
function schemaAt(path: readonly string[]): z.ZodType {
  let schema: z.ZodType = platformFile
  for (const key of path) schema = shapeAt([], schema)[key] as z.ZodType
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema
}

/** The keys the section at `path` (or `schema`) allows, with their schemas. */
function shapeAt(path: readonly string[], schema = schemaAt(path)): Record<string, z.ZodType> {
  const section = schema instanceof z.ZodOptional ? schema.unwrap() : schema
  return section instanceof z.ZodObject ? (section.shape as Record<string, z.ZodType>) : {}
}

function valueAt(document: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key],
    document
  )
}

function toConfig(file: PlatformFile): GlobalConfig {
  const { platform } = file
  const defaults: PagingOptions = {}
  for (const { name, key } of globalOptions) {
    const value = (platform.defaults as Record<string, unknown> | undefined)?.[key]
    if (value !== undefined) Object.assign(defaults, { [name]: value })
  }
  const parameters: ParameterNames = { ...defaultParameterNames }
  for (const [name, key] of parameterNames) {
    const value = platform.collection?.pagination?.[key]
    if (value !== undefined) parameters[name] = value
  }
  const filterParameters = { ...defaultFilterParameterNames }
  for (const [name, key] of filterParameterKeys) {
    const value = platform.collection?.[key]
    if (value !== undefined) filterParameters[name] = value
  }
  const config: GlobalConfig = { defaults, parameters, filterParameters }
  const cache = platform.defaults?.cache_headers
  if (cache) {
    config.cacheHeaders = Object.fromEntries(
      cacheHeaderEntries.flatMap(([name, { globalKey }]) =>
        cache[globalKey] === undefined ? [] : [[name, cache[globalKey]]]
      )
    ) as CacheHeaders
  }
  if (platform.title !== undefined) config.title = platform.title
  if (platform.description !== undefined) config.description = platform.description
  if (platform.serializer?.hydra_prefix !== undefined)
    config.hydraPrefix = platform.serializer.hydra_prefix
  return config
}
