/**
 * @module
 * The member type of a resource module (`BookMember`): what `hydra:member` and the item route
 * give for one row. The runtime derives it from the resource's description (`MemberOf`), the one
 * its member writer reads, so the module names it instead of writing each field's type again.
 * Its parameter names the fields a caller may not receive (`AuthorMember<'email'>`: `email`
 * optional), out of the ones access rules may hide (`AuthorHideable`: all but the key's).
 */
import { type OptionalKind, StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph'
import type { ResourceModel } from '../config/schema/model.js'
import { resourceNames } from './names.js'

/**
 * `export type BookHideable = Exclude<keyof MemberOf<typeof bookResource>, '@id' | '@type' | 'id'>`
 * and `export type BookMember<Hidden extends BookHideable = never> = Hideable<...>`.
 */
export function writeMemberTypes(
  resource: ResourceModel
): OptionalKind<TypeAliasDeclarationStructure>[] {
  const names = resourceNames(resource)
  const unhideable = ['@id', '@type', ...resource.key.fields.map((field) => field.name)]
  const types: OptionalKind<TypeAliasDeclarationStructure>[] = [
    {
      kind: StructureKind.TypeAlias,
      name: names.hideable,
      isExported: true,
      docs: [
        `The fields and links of ${resource.name} an access rule may hide (docs/security.md): every one but its key's, which are in every \`@id\`.`,
      ],
      type: `Exclude<keyof MemberOf<typeof ${names.resource}>, ${unhideable.map((name) => JSON.stringify(name)).join(' | ')}>`,
    },
    {
      kind: StructureKind.TypeAlias,
      name: names.member,
      isExported: true,
      typeParameters: [{ name: 'Hidden', constraint: names.hideable, default: 'never' }],
      docs: [
        `${resource.name} members as they appear in \`hydra:member\` and at their own IRIs: their fields' JSON values, then their links' IRIs; \`Hidden\` names the ones a caller may not receive, optional (\`HydraMembers<typeof access>\` reads them from the app's rules).`,
      ],
      type: `Hideable<MemberOf<typeof ${names.resource}>, Hidden>`,
    },
  ]
  if (resource.properties)
    types.push({
      kind: StructureKind.TypeAlias,
      name: `${resource.name}ShapedMember`,
      isExported: true,
      docs: [
        `${resource.name} members and items as a request naming the property filter gets them (docs/member-shape.md): \`@id\` and \`@type\`, any other property possibly left out, an embeddable relation its IRI or the embedded item. Every member is one, so a client reads a shaped answer's members as these.`,
      ],
      type: `ShapedMemberOf<typeof ${names.resource}>`,
    })
  return types
}
