/**
 * @module
 * A resource's member type (`BookMember`: what `hydra:member` and the item route give for one
 * row), derived from the resource's description as `defineResource` receives it: each shown
 * field's JSON value (the scalar table's `tsType`, an enum's values, a list, `null` when the field
 * is optional), then each link's IRI (`null` when an optional to-one link is empty), or the related
 * item (a to-many link: its first related items) where the description declares the link embedded. The values
 * are the ones `defineResource`'s member writer produces from the same description. The helpers
 * computing these types are left out of the API reference (`@hidden`).
 */
import type { JsonValue, SCALAR_TYPES } from '../scalar-types.js'

/** The TypeScript types the scalar table's `tsType` names. */
interface TsTypes {
  /** `tsType: 'string'`. */
  string: string
  /** `tsType: 'number'`. */
  number: number
  /** `tsType: 'boolean'`. */
  boolean: boolean
  /** `tsType: 'JsonValue'`. */
  JsonValue: JsonValue
}

/** What the member type reads of a field: its name, Prisma type, values and optionality. */
interface DescribedField {
  /** The field's name. */
  readonly name: string
  /** Its Prisma type (an enum's name for an enum). */
  readonly type: string
  /** Whether it is a list. */
  readonly list?: boolean | undefined
  /** Whether every row has a value (default true). */
  readonly required?: boolean | undefined
  /** An enum's values. */
  readonly values?: readonly string[] | undefined
}

/** What the member type reads of a link: its name, kind and whether a to-one link is optional. */
interface DescribedLink {
  /** The link's name. */
  readonly name: string
  /** To-one or to-many. */
  readonly kind: 'one' | 'many'
  /** To-one: whether every item has a related item (default true). */
  readonly required?: boolean | undefined
}

/**
 * One value of a field: an enum's values (text when it lists none), else its scalar's type.
 * @hidden
 */
type ScalarValue<F extends DescribedField> = F extends { values: infer V extends readonly string[] }
  ? V extends readonly []
    ? string
    : V[number]
  : F['type'] extends keyof typeof SCALAR_TYPES
    ? TsTypes[(typeof SCALAR_TYPES)[F['type']]['tsType']]
    : unknown

/**
 * A field's value in a member: a list of values or one, `null` when the field is optional.
 * @hidden
 */
type FieldValue<F extends DescribedField> =
  | (F extends { list: true } ? ScalarValue<F>[] : ScalarValue<F>)
  | (F extends { required: false } ? null : never)

/** A link's value in a member: an IRI, `null` when an optional to-one link is empty. @hidden */
type LinkValue<L extends DescribedLink> = L extends { kind: 'one'; required: false }
  ? string | null
  : string

/** The member of a described resource, flattened into one object type. @hidden */
type Flat<T> = { [Key in keyof T]: T[Key] }

/**
 * An embedded item of a declared embed `X`: its `@id`, `@type` and declared fields.
 * @hidden
 */
type DeclaredFields<X extends DescribedEmbed> = Flat<
  { '@id': string; '@type': X['model'] } & {
    [F in X['fields'][number] as F['name']]: FieldValue<F>
  }
>

/**
 * A Hydra key with the `hydra:` prefix unless the description says `hydraPrefix: false`.
 * @hidden
 */
type Term<D, K extends string> = D extends { hydraPrefix: false } ? K : `hydra:${K}`

/**
 * A to-many relation declared embedded (`first`): the first page of its sub-collection, its
 * related items, and a partial view when more exist (hydra/embedded-view.ts).
 *
 * @hidden
 */
type DeclaredCollection<D, X extends DescribedEmbed> = Flat<
  { '@id': string; '@type': Term<D, 'Collection'> } & {
    [K in Term<D, 'member'>]: DeclaredFields<X>[]
  } & {
    [K in Term<D, 'view'>]?: Flat<
      { '@id': string; '@type': Term<D, 'PartialCollectionView'> } & {
        [L in Term<D, 'first' | 'next'>]?: string
      }
    >
  }
>

/**
 * A link the description declares embedded (`embedded`, docs/member-shape.md): the related item
 * with its `@id`, `@type` and the declared fields (no `@context`: the link's term scopes its
 * model's context to it), or for a to-many link its embedded
 * collection; its IRI (`LinkValue`) when the caller may not see the related row. Any other link:
 * `never`.
 *
 * @hidden
 */
type DeclaredItem<D, N> = D extends {
  embedded: readonly (infer E)[]
}
  ? E extends { name: N; embed: infer X extends DescribedEmbed }
    ? X extends { first: number }
      ? DeclaredCollection<D, X>
      : DeclaredFields<X>
    : never
  : never

/**
 * The member type of a resource described as `{ name, fields, links }` (`defineResource`'s
 * description, its literal types kept): its `@id` and `@type` (what every member and item
 * carries first), its fields, then its links.
 *
 * @hidden
 */
export type DescribedMember<D extends { name: string; fields: readonly DescribedField[] }> = Flat<
  {
    /** The item's IRI. */
    '@id': string
    /** The resource's name. */
    '@type': D['name']
  } & {
    [F in D['fields'][number] as F['name']]: FieldValue<F>
  } & (D extends {
      /** The description's links. */
      links: readonly (infer L extends DescribedLink)[]
    }
      ? { [Link in L as Link['name']]: LinkValue<Link> | DeclaredItem<D, Link['name']> }
      : unknown)
>

/**
 * The member `M` as a caller whose rules may hide the fields `F` receives it: those fields
 * optional (absent when hidden, never `undefined`), the others as they are. `F` never: `M` itself.
 */
export type Hideable<M, F extends PropertyKey> = [F] extends [never]
  ? M
  : Flat<Omit<M, F> & Partial<Pick<M, F & keyof M>>>

/** A relation a property filter embeds, as its description gives it (contract/properties.ts). */
interface DescribedEmbed {
  /** The related model's name: the embedded item's `@type`. */
  readonly model: string
  /** The fields an embedded item may show. */
  readonly fields: readonly DescribedField[]
}

/** A property a property filter offers, as its description gives it. */
interface DescribedProperty {
  /** The property's name. */
  readonly name: string
  /** What it embeds, for a to-one link clients may embed. */
  readonly embed?: DescribedEmbed | undefined
}

/**
 * An embedded item of a shaped member (docs/member-shape.md): its `@id` and `@type`, and any of
 * the fields its relation offers (a request names some of them); the link's term scopes its
 * model's context to it.
 */
export type EmbeddedMember<E extends DescribedEmbed> = Flat<
  {
    /** The related item's IRI. */
    '@id': string
    /** The related model's name. */
    '@type': E['model']
  } & {
    [F in E['fields'][number] as F['name']]?: FieldValue<F>
  }
>

/**
 * A member `M` as a request naming the property filter `P` gets it: its `@id` and `@type`, any
 * property the filter offers possibly left out, and a relation it embeds either its IRI (as `M`
 * has it) or the embedded item.
 */
export type ShapedMember<M, P extends readonly DescribedProperty[]> = Flat<
  Pick<M, ('@id' | '@type') & keyof M> & {
    [S in P[number] as S['name'] & keyof M]?: S extends {
      /** What the property embeds. */
      embed: infer E extends DescribedEmbed
    }
      ? M[S['name'] & keyof M] | EmbeddedMember<E>
      : M[S['name'] & keyof M]
  }
>

/**
 * The shaped member of a resource whose items declare the property filter (`BookShapedMember`):
 * `ShapedMember` of its member type and its description's property filter; its member type when
 * it declares none.
 */
export type ShapedMemberOf<
  R extends {
    /** The resource's member writer. */
    toMember(row: object, base: string): unknown
  },
> = R extends {
  /** The items' property filter. */
  properties: {
    /** The properties it offers. */
    properties: infer P extends readonly DescribedProperty[]
  }
}
  ? ShapedMember<ReturnType<R['toMember']>, P>
  : ReturnType<R['toMember']>
