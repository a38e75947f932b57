/**
 * @module
 * The member type of a resource module (`BookMember`): what `hydra:member` and the item route
 * give for one row. The runtime derives it from the resource's description (`MemberOf`), the one
 * its member writer reads, so the module names it instead of writing each field's type again.
 */
import { type OptionalKind, StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph'
import type { ResourceModel } from '../config/model.js'
import { resourceNames } from './names.js'

/** `export type BookMember = MemberOf<typeof bookResource>`. */
export function writeMemberType(
  resource: ResourceModel
): OptionalKind<TypeAliasDeclarationStructure> {
  const names = resourceNames(resource)
  return {
    kind: StructureKind.TypeAlias,
    name: names.member,
    isExported: true,
    docs: [
      `${resource.name} members as they appear in \`hydra:member\` and at their own IRIs: their fields' JSON values, then their links' IRIs.`,
    ],
    type: `MemberOf<typeof ${names.resource}>`,
  }
}
