import { describe, expectTypeOf, it } from 'vitest'
import type { JsonValue } from '../scalar-types.js'
import type { CallerMember } from './caller-member.js'

/** A person, embedded by a team as its lead, as its member (`member`) and in its collection. */
type Person = { '@context': string; '@id': string; '@type': 'Person'; name: string; email: string }
type Team = {
  '@id': string
  '@type': 'Team'
  title: string
  settings: JsonValue
  tags: string[]
  lead: string | Person
  member: string | Person
  people: {
    '@id': string
    '@type': 'hydra:Collection'
    'hydra:member': Person[]
    'hydra:view'?: { '@id': string; '@type': 'hydra:PartialCollectionView' }
  }
}
/** Rules hiding a person's email. */
type Rules = { Person: { hidden: () => 'email'[] } }
type CallerPerson = {
  '@context': string
  '@id': string
  '@type': 'Person'
  name: string
  email?: string
}

describe("a member as a caller of an app's rules receives it", () => {
  it('has the fields the rules hide optional in every item it embeds', () => {
    type Received = CallerMember<Team, Rules>
    expectTypeOf<Received['lead']>().toEqualTypeOf<string | CallerPerson>()
    // A link named as a collection's items is still a link.
    expectTypeOf<Received['member']>().toEqualTypeOf<string | CallerPerson>()
    expectTypeOf<Received['people']['hydra:member']>().toEqualTypeOf<CallerPerson[]>()
    // Values that are not embedded items stay as they are.
    expectTypeOf<Received['settings']>().toEqualTypeOf<JsonValue>()
    expectTypeOf<Received['tags']>().toEqualTypeOf<string[]>()
    expectTypeOf<Received['title']>().toEqualTypeOf<string>()
  })

  it("has the fields the rules hide of a page's members optional", () => {
    type Page = { '@id': string; '@type': 'hydra:Collection'; 'hydra:member': Team[] }
    type Members = CallerMember<Page, Rules>['hydra:member']
    expectTypeOf<Members[number]['lead']>().toEqualTypeOf<string | CallerPerson>()
    type Unprefixed = { '@id': string; '@type': 'Collection'; member: Person[] }
    expectTypeOf<CallerMember<Unprefixed, Rules>['member']>().toEqualTypeOf<CallerPerson[]>()
  })

  it('is the type the app names where the rules change nothing of it', () => {
    type Item = Team & { '@context': string }
    expectTypeOf<
      CallerMember<Item, { Team: { hidden: () => 'title'[] } }>
    >().not.toEqualTypeOf<Item>()
    expectTypeOf<CallerMember<Item, { Shelf: { hidden: () => 'label'[] } }>>().toEqualTypeOf<Item>()
    expectTypeOf<CallerMember<Item, Record<never, never>>>().toEqualTypeOf<Item>()
  })
})
