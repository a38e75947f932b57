/**
 * @module
 * The generated `inverse-links` module: each resource's links whose target serves the relation's
 * other side, with that link's name (docs/security.md: a link a rule hides is hidden from both
 * sides). The index and every resource module read the app's rules through it, so that a
 * resource's own app (`createBookApp`) holds the rule as `createHydraApp` does.
 */
import type { SourceFile } from 'ts-morph'
import type { HydraModel, ResourceModel } from '../config/schema/model.js'
import type { EmitContext } from './context.js'
import { emitTableConstant } from './table-constant.js'

/** The module's name beside the resource modules, which no model's may take (config/resource.ts). */
export const INVERSE_LINKS_MODULE = 'inverse-links'

/** The links of `resource` whose other side its target serves, by name: `[target, link back]`. */
function inversesOf(
  resource: ResourceModel,
  resources: readonly ResourceModel[]
): Record<string, [string, string]> {
  const own: Record<string, [string, string]> = {}
  for (const link of resource.links) {
    const target = resources.find((candidate) => candidate.name === link.target)
    // A self-relation's other side is its other field.
    const back = target?.links.find(
      (candidate) =>
        link.relation !== undefined &&
        candidate.relation === link.relation &&
        candidate.target === resource.name &&
        !(target.name === resource.name && candidate.field === link.field)
    )
    if (target && back) own[link.name] = [target.name, back.name]
  }
  return own
}

/** Fills the module: `inverseLinks`, every resource's links that have another side. */
export function emitInverseLinksModule(
  file: SourceFile,
  model: HydraModel,
  context: EmitContext
): void {
  const table: Record<string, Record<string, [string, string]>> = {}
  for (const resource of model.resources) {
    const own = inversesOf(resource, model.resources)
    if (Object.keys(own).length > 0) table[resource.name] = own
  }
  emitTableConstant(file, context, {
    name: 'inverseLinks',
    type: 'InverseLinks',
    doc: "Each resource's links whose other side its target serves: the target and that link.",
    value: table,
    literal: true,
  })
}
