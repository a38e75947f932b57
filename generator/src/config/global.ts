import { defaultFilterParameterNames } from '@prisma-hydra/runtime/defaults'
import { parse as parseYaml } from 'yaml'
import { didYouMean, type Problem } from '../problems.js'
import {
  defaultParameterNames,
  type PagingOptionName,
  type PagingOptions,
  type ParameterNames,
  pagingOptionNames,
  pagingOptionSpecs,
  parameterNameAllowed,
  parameterNameKeys,
  parameterNameSchema,
} from './options.js'

/** Global configuration: the spec's `platform.defaults` and `platform.collection.pagination`. */
export interface GlobalConfig {
  defaults: PagingOptions
  parameters: ParameterNames
  /** `platform.collection.order_parameter_name` and `exists_parameter_name` (API Platform's). */
  filterParameters: { order: string; exists: string }
  /** `platform.serializer.hydra_prefix`: whether Hydra keys carry `hydra:` (default true). */
  hydraPrefix?: boolean
  /** `platform.title` and `platform.description`: the API documentation's title and description. */
  title?: string
  description?: string
}

export const emptyGlobalConfig: GlobalConfig = {
  defaults: {},
  parameters: defaultParameterNames,
  filterParameters: { ...defaultFilterParameterNames },
}

/** The global names of the order and exists parameters, as API Platform's configuration keys. */
const filterParameterKeys = {
  order: 'order_parameter_name',
  exists: 'exists_parameter_name',
} as const

const globalOptions = pagingOptionNames.flatMap((name) => {
  const key = pagingOptionSpecs[name].globalKey
  return key ? [{ name, key }] : []
})

type Plain = Record<string, unknown>

function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads the platform config file's text (YAML, or JSON, which is YAML too). Pure: the caller reads
 * the file. Every problem is returned; the config holds whatever was valid.
 */
export function parseGlobalConfig(
  text: string,
  label: string
): { config: GlobalConfig; problems: Problem[] } {
  const problems: Problem[] = []
  const location = `platform config (${label})`
  const problem = (source: string, message: string, option?: string): void => {
    problems.push({ severity: 'error', location, source, message, ...(option ? { option } : {}) })
  }

  let document: unknown
  try {
    document = parseYaml(text)
  } catch (error) {
    problem('file', `is not valid YAML or JSON: ${(error as Error).message}`)
    return { config: emptyGlobalConfig, problems }
  }
  if (!isPlainObject(document) || !isPlainObject(document.platform)) {
    problem(
      'file',
      'the root key must be "platform", holding "defaults", "collection", "serializer", "title" or "description"'
    )
    return { config: emptyGlobalConfig, problems }
  }

  const platform = document.platform
  checkKeys(
    platform,
    ['title', 'description', 'defaults', 'collection', 'serializer'],
    'platform',
    problem
  )
  const described: Pick<GlobalConfig, 'title' | 'description'> = {}
  for (const key of ['title', 'description'] as const) {
    const value = platform[key]
    if (value === undefined) continue
    if (typeof value === 'string' && value.trim() !== '') described[key] = value
    else problem('platform', `must be a non-empty string, got ${show(value)}`, key)
  }

  let hydraPrefix: boolean | undefined
  const serializer = platform.serializer
  if (serializer !== undefined) {
    if (!isPlainObject(serializer)) {
      problem('platform.serializer', 'must be a mapping holding "hydra_prefix"')
    } else {
      checkKeys(serializer, ['hydra_prefix'], 'platform.serializer', problem)
      const value = serializer.hydra_prefix
      if (typeof value === 'boolean') hydraPrefix = value
      else if (value !== undefined)
        problem('platform.serializer', `must be true or false, got ${show(value)}`, 'hydra_prefix')
    }
  }

  const defaults: PagingOptions = {}
  if (platform.defaults !== undefined) {
    if (!isPlainObject(platform.defaults)) {
      problem('platform.defaults', 'must be a mapping of option names to values')
    } else {
      const section = platform.defaults
      checkKeys(
        section,
        globalOptions.map((option) => option.key),
        'platform.defaults',
        problem
      )
      for (const { name, key } of globalOptions) {
        if (!Object.hasOwn(section, key)) continue
        const value = readOption(name, section[key])
        if (value.ok) Object.assign(defaults, { [name]: value.value })
        else
          problem(
            'platform.defaults',
            `must be ${pagingOptionSpecs[name].allowed}, got ${show(section[key])}`,
            key
          )
      }
    }
  }

  const parameters: ParameterNames = { ...defaultParameterNames }
  const filterParameters: { order: string; exists: string } = { ...defaultFilterParameterNames }
  const collection = platform.collection
  if (collection !== undefined) {
    if (!isPlainObject(collection)) {
      problem('platform.collection', 'must be a mapping holding "pagination"')
    } else {
      const filterKeys = Object.values(filterParameterKeys)
      checkKeys(collection, ['pagination', ...filterKeys], 'platform.collection', problem)
      for (const [name, key] of Object.entries(filterParameterKeys) as Array<
        ['order' | 'exists', string]
      >) {
        if (!Object.hasOwn(collection, key)) continue
        const value = parameterNameSchema.safeParse(collection[key])
        if (value.success) filterParameters[name] = value.data
        else
          problem(
            'platform.collection',
            `must be ${parameterNameAllowed}, got ${show(collection[key])}`,
            key
          )
      }
      const pagination = collection.pagination
      if (pagination !== undefined && !isPlainObject(pagination)) {
        problem('platform.collection.pagination', 'must be a mapping of parameter names')
      } else if (pagination) {
        const keys = Object.values(parameterNameKeys)
        checkKeys(pagination, keys, 'platform.collection.pagination', problem)
        for (const [name, key] of Object.entries(parameterNameKeys) as Array<
          [keyof ParameterNames, string]
        >) {
          if (!Object.hasOwn(pagination, key)) continue
          const value = parameterNameSchema.safeParse(pagination[key])
          if (value.success) parameters[name] = value.data
          else
            problem(
              'platform.collection.pagination',
              `must be ${parameterNameAllowed}, got ${show(pagination[key])}`,
              key
            )
        }
        const seen = new Map<string, string>()
        for (const [name, key] of Object.entries(parameterNameKeys) as Array<
          [keyof ParameterNames, string]
        >) {
          const other = seen.get(parameters[name])
          if (other) {
            problem(
              'platform.collection.pagination',
              `"${parameters[name]}" is already the name of ${other}; each parameter needs its own name`,
              key
            )
          }
          seen.set(parameters[name], key)
        }
      }
    }
  }

  const names = [
    ...Object.entries(parameters).map(([name, value]) => [value, `the ${name} parameter`] as const),
    ...Object.entries(filterParameters).map(
      ([name, value]) => [value, `the ${name} parameter`] as const
    ),
  ]
  for (const [name, key] of Object.entries(filterParameterKeys) as Array<
    ['order' | 'exists', string]
  >) {
    const clash = names.find(
      ([value, owner]) => value === filterParameters[name] && owner !== `the ${name} parameter`
    )
    if (clash)
      problem(
        'platform.collection',
        `"${filterParameters[name]}" is already the name of ${clash[1]}; each parameter needs its own name`,
        key
      )
  }
  const config: GlobalConfig = { defaults, parameters, filterParameters, ...described }
  if (hydraPrefix !== undefined) config.hydraPrefix = hydraPrefix
  return { config, problems }
}

export function readOption(
  name: PagingOptionName,
  value: unknown
): { ok: true; value: unknown } | { ok: false } {
  const result = pagingOptionSpecs[name].schema.safeParse(value)
  return result.success ? { ok: true, value: result.data } : { ok: false }
}

function checkKeys(
  section: Plain,
  allowed: readonly string[],
  source: string,
  problem: (source: string, message: string, option?: string) => void
): void {
  for (const key of Object.keys(section)) {
    if (!allowed.includes(key)) {
      problem(source, `unknown key.${didYouMean(key, allowed)} Allowed: ${allowed.join(', ')}`, key)
    }
  }
}

/** A value as the user wrote it, for error messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  return JSON.stringify(value) ?? String(value)
}
