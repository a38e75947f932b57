/**
 * @module
 * The member type of a resource module (`BookMember`): what `hydra:member` and the item route
 * give for one row, field by field.
 */
import { type ScalarType, scalarType } from '@prisma-hydra/runtime/defaults'
import {
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  StructureKind,
} from 'ts-morph'
import type { FieldModel, ResourceModel } from '../config/model.js'
import { resourceNames } from './names.js'
import type { RuntimeType } from './runtime-imports.js'

type Primitive = 'string' | 'number' | 'boolean'
const PRIMITIVES: ReadonlySet<string> = new Set<Primitive>(['string', 'number', 'boolean'])
const isPrimitive = (name: ScalarType['tsType']): name is Primitive => PRIMITIVES.has(name)

/**
 * The runtime's types that the member type names for its fields' values (`JsonValue`). Every
 * type of the scalar type table that is not a primitive must be one the generated entry exports:
 * the type checker refuses `names.add` otherwise.
 */
export function runtimeTypes(resource: ResourceModel): RuntimeType[] {
  const names = new Set<RuntimeType>()
  for (const field of resource.fields) {
    const name = field.kind === 'scalar' ? scalarType(field.type)?.tsType : undefined
    if (name && !isPrimitive(name)) names.add(name)
  }
  return [...names].sort()
}

/** The TypeScript type of a field's value in the JSON output. */
export function outputType(field: FieldModel): string {
  const base =
    field.kind === 'enum'
      ? (field.enumValues ?? []).map((value) => JSON.stringify(value)).join(' | ') || 'string'
      : (scalarType(field.type)?.tsType ?? 'unknown')
  const item = field.isList ? (base.includes('|') ? `Array<${base}>` : `${base}[]`) : base
  return field.isRequired ? item : `${item} | null`
}

export function writeMemberInterface(resource: ResourceModel): InterfaceDeclarationStructure {
  const properties: OptionalKind<PropertySignatureStructure>[] = [
    ...resource.fields.map((field) => ({ name: field.name, type: outputType(field) })),
    ...resource.links.map((link) => ({
      name: link.name,
      type: link.kind === 'one' && !link.required ? 'string | null' : 'string',
      docs: [
        link.kind === 'one'
          ? `The IRI of the related ${link.target}.`
          : `The IRI of the collection of the related ${link.target} items.`,
      ],
    })),
  ]
  return {
    kind: StructureKind.Interface,
    name: resourceNames(resource).member,
    isExported: true,
    docs: [`A ${resource.name} as it appears in \`hydra:member\` and at its own IRI.`],
    extends: [`HydraNode<${JSON.stringify(resource.name)}>`],
    properties,
  }
}
