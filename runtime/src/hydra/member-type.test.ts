import { describe, expect, expectTypeOf, it } from 'vitest'
import type { MemberOf } from '../contract/resource.js'
import type { JsonValue } from '../scalar-types.js'
import { defineResource } from './resource.js'

const target = { name: 'Author', collectionPath: '/authors' }
const specimen = defineResource(
  { key: { name: 'id', kind: 'Int' } },
  {
    name: 'Specimen',
    collectionPath: '/specimens',
    fields: [
      { name: 'id', type: 'Int' },
      { name: 'big', type: 'BigInt' },
      { name: 'ratio', type: 'Float', required: false },
      { name: 'price', type: 'Decimal', scale: 2 },
      { name: 'at', type: 'DateTime', iri: 'https://schema.org/dateCreated' },
      { name: 'ok', type: 'Boolean' },
      { name: 'data', type: 'Json', required: false },
      { name: 'blob', type: 'Bytes' },
      { name: 'tags', type: 'String', list: true },
      { name: 'shelf', type: 'Shelf', values: ['A', 'B'] },
      { name: 'shelves', type: 'Shelf', list: true, values: ['A', 'B'] },
      { name: 'later', type: 'Vector' },
    ],
    links: [
      { name: 'author', kind: 'one', target, from: 'authorId' },
      { name: 'editor', kind: 'one', target, from: 'editorId', required: false },
      { name: 'works', kind: 'many', target },
    ],
    unshown: [{ name: 'authorId', type: 'Int' }],
  }
)

describe('the member type of a described resource', () => {
  it('is each field’s JSON value and each link’s IRI, as the member writer writes them', () => {
    type Expected = {
      '@id': string
      '@type': 'Specimen'
      id: number
      big: string
      ratio: number | null
      price: string
      at: string
      ok: boolean
      data: JsonValue | null
      blob: string
      tags: string[]
      shelf: 'A' | 'B'
      shelves: ('A' | 'B')[]
      // A type the scalar table does not know (one Prisma may add): its value is not promised.
      later: unknown
      author: string
      editor: string | null
      works: string
    }
    expectTypeOf<MemberOf<typeof specimen>>().toEqualTypeOf<Expected>()
    const row = {
      id: 1,
      big: 9007199254740993n,
      ratio: null,
      price: { toFixed: (scale: number) => (1.5).toFixed(scale), d: [], e: 0, s: 1 },
      at: new Date('2024-01-02T03:04:05Z'),
      ok: true,
      data: null,
      blob: new Uint8Array([1]),
      tags: ['x'],
      shelf: 'A',
      shelves: ['B'],
      later: 'v',
      authorId: 3,
      editorId: null,
    }
    const member: Expected = specimen.toMember(row, '')
    expect(member).toMatchObject({ id: 1, big: '9007199254740993', author: '/authors/3' })
    expect(member.editor).toBeNull()
    expect(member.works).toBe('/specimens/1/works')
  })

  it('has no fields but its @id and @type when it shows none', () => {
    const bare = defineResource(
      { key: { name: 'id', kind: 'String' } },
      { name: 'Bare', collectionPath: '/bares', fields: [] }
    )
    expectTypeOf<MemberOf<typeof bare>>().toEqualTypeOf<{ '@id': string; '@type': 'Bare' }>()
  })
})
