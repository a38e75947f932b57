import { entrypointKey, HYDRA_TERMS } from '@prisma-hydra/runtime/defaults'
import type { Problem, Report } from '../../problems.js'
import type { FieldModel, LinkModel, OperationModel, ResourceModel } from './model.js'

/** Names the API documentation and the entrypoint use for themselves. */
const RESERVED_MODELS = ['Entrypoint', 'Error']
const RESERVED_PATHS = /^\/(docs\.jsonld|docs|openapi\.json|contexts|errors)(\/|$)/

/**
 * Names the API's own vocabulary takes: a field `hydra` (the prefix), models named like the API's
 * own types and, without the `hydra:` prefix, a collection's keys (`member`, `next`...), which are
 * then terms of the type's context: a shown field or the model cannot take one of those names.
 */
export function checkHydraNames(
  name: string,
  fields: ReadonlyArray<Pick<FieldModel, 'name'> | Pick<LinkModel, 'name' | 'field'>>,
  operations: readonly OperationModel[],
  report: Report
): void {
  const hydraField = fields.find((field) => field.name === 'hydra')
  if (hydraField) {
    report({
      source: '@pagination',
      message:
        'field "hydra" cannot be shown: "hydra" is the prefix of Hydra\'s vocabulary in the context; hide the field (@hidden) or rename it (@map keeps the column)',
    })
  }
  if (RESERVED_MODELS.includes(name)) {
    report({
      source: '@pagination',
      message: `the model's name "${name}" is the name of the API's ${name === 'Error' ? 'error type' : 'entrypoint'} (/contexts/${name}); rename the model (@@map keeps the table)`,
    })
  }
  const unprefixed = operations.find((operation) => !operation.hydraPrefix)
  if (!unprefixed) return
  const source =
    unprefixed.name === 'collection' ? '@resource' : `@operation(name: "${unprefixed.name}")`
  const reserved = [...HYDRA_TERMS]
  if (reserved.includes(name)) {
    report({
      source,
      option: 'hydraPrefix',
      message: `is false, but the model's name "${name}" is a Hydra term there; keep the prefix or rename the model`,
    })
  }
  for (const field of fields) {
    if (!reserved.includes(field.name)) continue
    if ('field' in field && typeof field.field === 'string') {
      report({
        source,
        option: 'hydraPrefix',
        message: `is false, but relation "${field.field}" is shown as "${field.name}", the name of a Hydra term (${reserved.join(', ')}); keep the prefix, turn the relation off (@hidden) or rename it (@property(name: "..."))`,
      })
      continue
    }
    report({
      source,
      option: 'hydraPrefix',
      message: `is false, but field "${field.name}" has the name of a Hydra term (${reserved.join(', ')}); keep the prefix, hide the field (@hidden) or rename it (@map keeps the column)`,
    })
  }
}

/** Each operation's key in the entrypoint must be its own. */
export function checkEntrypointKeys(resources: readonly ResourceModel[]): Problem[] {
  const problems: Problem[] = []
  const owners = new Map<string, string>()
  for (const resource of resources) {
    for (const operation of resource.operations) {
      const key = entrypointKey(resource.name, operation.name)
      const taken = owners.get(key)
      if (taken) {
        problems.push({
          severity: 'error',
          location: `Model "${resource.name}"`,
          source:
            operation.name === 'collection'
              ? '@pagination'
              : `@operation(name: "${operation.name}")`,
          option: 'name',
          message: `the entrypoint would list it as "${key}", which is already ${taken}; rename the operation`,
        })
      }
      owners.set(key, `${resource.name}.${operation.name}`)
    }
  }
  return problems
}

/** The problem of an operation's path, at the annotation that sets it. */
export function pathProblem(model: string, operation: string, message: string): Problem {
  return {
    severity: 'error',
    location: `Model "${model}"`,
    source: operation === 'collection' ? '@resource' : `@operation(name: "${operation}")`,
    option: 'path',
    message,
  }
}

/** Each operation needs its own path, outside the paths the API serves itself. */
export function checkPaths(resources: readonly ResourceModel[]): Problem[] {
  const problems: Problem[] = []
  const owners = new Map<string, string>()
  for (const resource of resources) {
    for (const operation of resource.operations) {
      const problem = (message: string) =>
        problems.push(pathProblem(resource.name, operation.name, message))
      if (RESERVED_PATHS.test(operation.path)) {
        problem(
          `"${operation.path}" belongs to the API itself (/docs.jsonld, /docs, /openapi.json, /contexts/..., /errors/...); choose another path`
        )
      }
      const taken = owners.get(operation.path)
      if (taken) {
        problem(
          `"${operation.path}" is already served by ${taken}; give each collection its own path`
        )
      }
      owners.set(operation.path, `${resource.name}.${operation.name}`)
    }
  }
  return problems
}
