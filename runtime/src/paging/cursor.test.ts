import { describe, expect, it } from 'vitest'
import { byKey, compare, matches, memorySource, type Row } from '../../test/memory-source.js'
import type { CursorKey } from '../contract/order.js'
import { defaultParameterNames } from '../contract/paging.js'
import { prismaWhere } from '../data/prisma7/where.js'
import { HydraError } from '../errors.js'
import { renderCollection } from '../hydra/collection.js'
import { parseQuery, type QueryMap } from '../iri/query-string.js'
import { pastCondition } from '../plan/keyset.js'
import { readWhere } from '../plan/scope-reader.js'
import {
  type CursorBound,
  fetchCursorPage,
  formatCursorValue,
  parseCursorValue,
  readCursorBound,
} from './cursor.js'
import type { CollectionPage, LinkTarget } from './types.js'

/** The rows past a position, as the `prisma` engine writes them. */
const keysetWhere = (
  keys: readonly CursorKey[],
  values: readonly unknown[],
  backward: boolean,
  inclusive: boolean
) => prismaWhere(pastCondition({ keys, values, backward, inclusive }))

/** A where as the writer writes what it means (its parts on distinct fields in one object). */
const written = (where: Record<string, unknown>) => prismaWhere(readWhere(where))

/**
 * Cursor (keyset) paging, docs/paging.md#d4 and docs/cursor-paging.md: values read from links, the position a
 * request names, the Prisma `where` for it, and whole pages over an in-memory source that really
 * evaluates those `where` objects. Pure: no database, no HTTP.
 */

/** The 400 a function throws, as `{ status, detail }`; fails the test when it throws nothing. */
function rejection(run: () => unknown): { status: number; detail: string } {
  try {
    run()
  } catch (error) {
    if (error instanceof HydraError) return { status: error.status, detail: error.detail }
    throw error
  }
  throw new Error('expected a HydraError, nothing was thrown')
}

const key = (
  field: string,
  type: string,
  direction: 'asc' | 'desc' = 'asc',
  uuid?: boolean
): CursorKey => (uuid === undefined ? { field, direction, type } : { field, direction, type, uuid })

const utc = (iso: string): Date => new Date(iso)

// ---------------------------------------------------------------------------------------------
// 1. parseCursorValue / formatCursorValue
// ---------------------------------------------------------------------------------------------

const mustBe = (parameter: string, expected: string, raw: string): string =>
  `The "${parameter}" parameter must be ${expected}, "${raw}" given.`

const DATE_TIME = 'an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z)'

describe('parseCursorValue: accepted values, read as the field type', () => {
  const cases: [type: string, raw: string, expected: unknown][] = [
    ['Int', '0', 0],
    ['Int', '42', 42],
    ['Int', '-7', -7],
    ['Int', '007', 7],
    ['Int', '2147483647', 2147483647],
    ['Int', '-2147483648', -2147483648],
    ['BigInt', '0', 0n],
    ['BigInt', '-15', -15n],
    ['BigInt', '9007199254740993', 9007199254740993n],
    ['BigInt', '9223372036854775807', 9223372036854775807n],
    ['BigInt', '-9223372036854775808', -9223372036854775808n],
    ['Float', '42', 42],
    ['Float', '1.5', 1.5],
    ['Float', '-0.25', -0.25],
    ['Float', '1e3', 1000],
    ['Float', '2.5E-3', 0.0025],
    ['Float', '1e+21', 1e21],
    ['Float', '5e-324', 5e-324],
    ['Decimal', '100', '100'],
    ['Decimal', '12.50', '12.50'],
    ['Decimal', '-0.001', '-0.001'],
    ['Decimal', '12345678901234567890.123456789', '12345678901234567890.123456789'],
    ['DateTime', '2024-02-29', utc('2024-02-29T00:00:00Z')],
    ['DateTime', '2000-02-29', utc('2000-02-29T00:00:00Z')],
    ['DateTime', '2024-01-31T12:00:00Z', utc('2024-01-31T12:00:00Z')],
    ['DateTime', '2024-01-31T12:00Z', utc('2024-01-31T12:00:00Z')],
    ['DateTime', '2024-01-31T12:00:00.123Z', utc('2024-01-31T12:00:00.123Z')],
    ['DateTime', '2024-01-31T12:00:00.123456789Z', utc('2024-01-31T12:00:00.123Z')],
    ['DateTime', '2024-12-31T23:59:59Z', utc('2024-12-31T23:59:59Z')],
    ['DateTime', '2024-01-31T12:00:00+02:00', utc('2024-01-31T10:00:00Z')],
    ['DateTime', '2024-01-31T12:00:00-05:30', utc('2024-01-31T17:30:00Z')],
    ['DateTime', '2024-01-31T12:00:00+0200', utc('2024-01-31T10:00:00Z')],
    ['DateTime', '2024-01-31T00:30:00+23:59', utc('2024-01-30T00:31:00Z')],
    ['DateTime', '2024-02-29T23:59:59.999Z', utc('2024-02-29T23:59:59.999Z')],
    ['String', 'anything', 'anything'],
    ['String', '', ''],
    ['String', 'a b&c=d', 'a b&c=d'],
    ['String', 'ünïcødé', 'ünïcødé'],
    ['String', '2024-02-30', '2024-02-30'],
  ]

  it.each(cases)('%s "%s"', (type, raw, expected) => {
    const value = parseCursorValue(key('f', type), raw, 'f[gt]')
    expect(value).toStrictEqual(expected)
    expect(typeof value).toBe(typeof expected)
  })

  it('keeps BigInt values beyond 2^53 exact', () => {
    const value = parseCursorValue(key('id', 'BigInt'), '9007199254740993', 'id[gt]')
    expect(value).toBe(2n ** 53n + 1n)
    expect(value).not.toBe(BigInt(Number('9007199254740993')))
  })

  it.each([
    '123e4567-e89b-12d3-a456-426614174000',
    '123E4567-E89B-12D3-A456-426614174000',
    '00000000-0000-0000-0000-000000000000',
  ])('String uuid %s', (raw) => {
    expect(parseCursorValue(key('id', 'String', 'asc', true), raw, 'id[gt]')).toBe(raw)
  })
})

describe('parseCursorValue: a malformed value is a 400 naming the parameter', () => {
  const cases: [type: string, raw: string, expected: string, uuid?: boolean][] = [
    ['Int', '', 'an integer'],
    ['Int', '1.5', 'an integer'],
    ['Int', '1e3', 'an integer'],
    ['Int', '+1', 'an integer'],
    ['Int', ' 1', 'an integer'],
    ['Int', '0x10', 'an integer'],
    ['Int', 'abc', 'an integer'],
    ['Int', '2147483648', 'a 32-bit integer'],
    ['Int', '-2147483649', 'a 32-bit integer'],
    ['Int', '99999999999999999999', 'a 32-bit integer'],
    ['BigInt', '', 'an integer'],
    ['BigInt', '1.0', 'an integer'],
    ['BigInt', '1n', 'an integer'],
    ['BigInt', '9223372036854775808', 'a 64-bit integer'],
    ['BigInt', '-9223372036854775809', 'a 64-bit integer'],
    ['Float', '', 'a number'],
    ['Float', '.5', 'a number'],
    ['Float', '1.', 'a number'],
    ['Float', '+1', 'a number'],
    ['Float', '1,5', 'a number'],
    ['Float', 'NaN', 'a number'],
    ['Float', 'Infinity', 'a number'],
    ['Float', '1e309', 'a number'],
    ['Float', '0x10', 'a number'],
    ['Decimal', '', 'a decimal number'],
    ['Decimal', '1e3', 'a decimal number'],
    ['Decimal', '.5', 'a decimal number'],
    ['Decimal', '1.', 'a decimal number'],
    ['Decimal', '+1', 'a decimal number'],
    ['Decimal', '1,5', 'a decimal number'],
    ['Decimal', 'abc', 'a decimal number'],
    ['DateTime', '', DATE_TIME],
    ['DateTime', 'now', DATE_TIME],
    ['DateTime', '1706702400', DATE_TIME],
    ['DateTime', '31/01/2024', DATE_TIME],
    ['DateTime', '2024-1-31', DATE_TIME],
    ['DateTime', '2023-02-29', DATE_TIME],
    ['DateTime', '1900-02-29', DATE_TIME],
    ['DateTime', '2024-02-30', DATE_TIME],
    ['DateTime', '2024-04-31', DATE_TIME],
    ['DateTime', '2024-00-10', DATE_TIME],
    ['DateTime', '2024-13-01', DATE_TIME],
    ['DateTime', '2024-01-00', DATE_TIME],
    ['DateTime', '2024-01-32', DATE_TIME],
    ['DateTime', '2024-01-31T24:00:00Z', DATE_TIME],
    ['DateTime', '2024-01-31T12:60:00Z', DATE_TIME],
    ['DateTime', '2024-01-31T12:00:60Z', DATE_TIME],
    ['DateTime', '2024-01-31T12Z', DATE_TIME],
    ['DateTime', '2024-01-31 12:00:00Z', DATE_TIME],
    ['DateTime', '2024-01-31T12:00:00+24:00', DATE_TIME],
    ['DateTime', '2024-01-31T12:00:00+02:60', DATE_TIME],
    ['DateTime', '2024-01-31T12:00:00+02', DATE_TIME],
    ['DateTime', '2024-01-31T12:00:00.1234567891Z', DATE_TIME],
    ['DateTime', '2024-01-31Z', DATE_TIME],
    ['String', '', 'a UUID', true],
    ['String', 'not-a-uuid', 'a UUID', true],
    ['String', '123e4567e89b12d3a456426614174000', 'a UUID', true],
    ['String', '{123e4567-e89b-12d3-a456-426614174000}', 'a UUID', true],
    ['String', '123e4567-e89b-12d3-a456-42661417400g', 'a UUID', true],
  ]

  it.each(cases)('%s "%s"', (type, raw, expected, uuid) => {
    expect(rejection(() => parseCursorValue(key('f', type, 'asc', uuid), raw, 'f[lte]'))).toEqual({
      status: 400,
      detail: mustBe('f[lte]', expected, raw),
    })
  })
})

describe('formatCursorValue: row values written into links read back unchanged', () => {
  const cases: [type: string, value: unknown, text: string][] = [
    ['Int', 42, '42'],
    ['Int', -2147483648, '-2147483648'],
    ['BigInt', 2n ** 63n - 1n, '9223372036854775807'],
    ['BigInt', 2n ** 53n + 1n, '9007199254740993'],
    ['Float', 0.1, '0.1'],
    ['Float', 1e21, '1e+21'],
    ['Float', 1e-7, '1e-7'],
    ['Decimal', '12.50', '12.50'],
    ['DateTime', utc('2024-02-29T23:59:59.999Z'), '2024-02-29T23:59:59.999Z'],
    ['DateTime', utc('2024-01-31T10:00:00Z'), '2024-01-31T10:00:00.000Z'],
    ['String', 'a b', 'a b'],
  ]

  it.each(cases)('%s %s', (type, value, text) => {
    expect(formatCursorValue(value)).toBe(text)
    expect(parseCursorValue(key('f', type), text, 'f[gt]')).toStrictEqual(value)
  })

  /**
   * Prisma returns Decimal columns as decimal.js `Decimal`s, whose `toString()` uses exponent
   * notation below 1e-7 and from 1e21; links must carry plain notation, which reads back.
   */
  it('a Decimal the row gives in exponent form makes a link that reads back', () => {
    const decimal = { toString: () => '1e-7', toFixed: () => '0.0000001' }
    const text = formatCursorValue(decimal)
    expect(() => parseCursorValue(key('price', 'Decimal'), text, 'price[gt]')).not.toThrow()
  })
})

// ---------------------------------------------------------------------------------------------
// 2. readCursorBound
// ---------------------------------------------------------------------------------------------

const idAsc = [key('id', 'Int')]
const idDesc = [key('id', 'Int', 'desc')]
/** Mixed directions: score descending, then id ascending as the unique tie-breaker. */
const scoreId = [key('score', 'Int', 'desc'), key('id', 'Int')]
/** Three fields, three types, mixed directions. */
const groupAtId = [key('group', 'String'), key('at', 'DateTime', 'desc'), key('id', 'Int')]

/** A position on a prefix of the key (the keys are filled in by the test), or on `keys`. */
const bound = (
  values: unknown[],
  raw: string[],
  backward: boolean,
  inclusive: boolean,
  keys: CursorKey[] = []
): CursorBound => ({ keys, values, raw, backward, inclusive })

describe('readCursorBound: the position a request names', () => {
  const cases: [name: string, keys: CursorKey[], raw: string, expected: CursorBound | null][] = [
    ['no parameters', idAsc, '', null],
    ['only other parameters', scoreId, 'order[id]=desc&page=2&name=x', null],
    ['a cursor-like parameter of another field', idAsc, 'other[gt]=5', null],
    ['asc, forward', idAsc, 'id[gt]=5', bound([5], ['5'], false, false)],
    ['asc, backward', idAsc, 'id[lt]=5', bound([5], ['5'], true, false)],
    ['asc, forward inclusive', idAsc, 'id[gte]=5', bound([5], ['5'], false, true)],
    ['asc, backward inclusive', idAsc, 'id[lte]=5', bound([5], ['5'], true, true)],
    ['desc, forward', idDesc, 'id[lt]=8', bound([8], ['8'], false, false)],
    ['desc, backward', idDesc, 'id[gt]=10', bound([10], ['10'], true, false)],
    ['desc, forward inclusive', idDesc, 'id[lte]=8', bound([8], ['8'], false, true)],
    ['desc, backward inclusive', idDesc, 'id[gte]=8', bound([8], ['8'], true, true)],
    ['brackets sent encoded', idAsc, 'id%5Bgt%5D=5', bound([5], ['5'], false, false)],
    [
      'mixed directions, forward',
      scoreId,
      'score[lt]=7&id[gt]=3',
      bound([7, 3], ['7', '3'], false, false),
    ],
    [
      'mixed directions, backward',
      scoreId,
      'score[gt]=7&id[lt]=3',
      bound([7, 3], ['7', '3'], true, false),
    ],
    [
      'mixed directions, forward, inclusive last field',
      scoreId,
      'score[lt]=7&id[gte]=3',
      bound([7, 3], ['7', '3'], false, true),
    ],
    [
      'mixed directions, backward, inclusive last field',
      scoreId,
      'score[gt]=7&id[lte]=3',
      bound([7, 3], ['7', '3'], true, true),
    ],
    [
      'parameters in any order, read in key order',
      scoreId,
      'id[gt]=3&page=4&score[lt]=7',
      bound([7, 3], ['7', '3'], false, false),
    ],
    ['a prefix: the first field only', scoreId, 'score[lt]=7', bound([7], ['7'], false, false)],
    ['a prefix, backward inclusive', scoreId, 'score[gte]=7', bound([7], ['7'], true, true)],
    [
      'a two-field prefix of three',
      groupAtId,
      'group[gt]=a%20b&at[lt]=2024-01-31T12%3A00%3A00.000Z',
      bound(
        ['a b', utc('2024-01-31T12:00:00Z')],
        ['a b', '2024-01-31T12:00:00.000Z'],
        false,
        false
      ),
    ],
    [
      'three fields, forward, inclusive last',
      groupAtId,
      'group[gt]=b&at[lt]=2024-02-29&id[gte]=9',
      bound(['b', utc('2024-02-29T00:00:00Z'), 9], ['b', '2024-02-29', '9'], false, true),
    ],
    [
      'three fields, backward',
      groupAtId,
      'group[lt]=b&at[gt]=2024-02-29T10:00:00%2B02:00&id[lt]=9',
      bound(
        ['b', utc('2024-02-29T08:00:00Z'), 9],
        ['b', '2024-02-29T10:00:00+02:00', '9'],
        true,
        false
      ),
    ],
    // Fields left out are skipped: the values given are compared in the key's order.
    [
      'a later field without the first',
      scoreId,
      'id[gt]=3',
      bound([3], ['3'], false, false, scoreId.slice(1)),
    ],
    [
      'the first and third fields of three',
      groupAtId,
      'group[lt]=a&id[lt]=3',
      bound(['a', 3], ['a', '3'], true, false, [groupAtId[0], groupAtId[2]] as CursorKey[]),
    ],
    [
      'the last field alone, inclusive',
      groupAtId,
      'id[gte]=3',
      bound([3], ['3'], false, true, groupAtId.slice(2)),
    ],
  ]

  it.each(cases)('%s: %s', (_name, keys, raw, expected) => {
    const prefix = expected && expected.keys.length === 0
    const position = prefix
      ? { ...expected, keys: keys.slice(0, expected.values.length) }
      : expected
    expect(readCursorBound(parseQuery(raw), keys)).toStrictEqual(position)
  })
})

describe('readCursorBound: 400s', () => {
  const usage = (f: string): string =>
    `The "${f}" parameter is a cursor: give it as ${f}[lt]=…, ${f}[gt]=…, ${f}[lte]=… or ${f}[gte]=…, once.`
  const INCLUSIVE_NOT_LAST =
    'Only the last cursor field may use an inclusive bound ([lte] or [gte]).'
  const sameWay = (forward: string): string =>
    `The cursor parameters must all point the same way: ${forward} for the next items, the opposite operators for the previous ones.`

  const cases: [name: string, keys: CursorKey[], raw: string, detail: string][] = [
    ['two operators for one field', idAsc, 'id[gt]=1&id[lt]=9', usage('id')],
    [
      'the same operator twice (the reference would keep the last)',
      idAsc,
      'id[gt]=1&id[gt]=x',
      usage('id'),
    ],
    ['a scalar value', idAsc, 'id=5', usage('id')],
    ['a scalar value for a later field', scoreId, 'score[lt]=7&id=3', usage('id')],
    ['an unknown operator', idAsc, 'id[eq]=5', usage('id')],
    ['an upper-case operator', idAsc, 'id[GT]=5', usage('id')],
    ['a list value', idAsc, 'id[]=5', usage('id')],
    ['a nested value', idAsc, 'id[gt][x]=5', usage('id')],
    ['a nested list value', idAsc, 'id[gt][]=5', usage('id')],
    ['a missing value', idAsc, 'id[gt]', mustBe('id[gt]', 'an integer', '')],
    ['a malformed value', scoreId, 'score[lt]=x&id[gt]=3', mustBe('score[lt]', 'an integer', 'x')],
    [
      'a malformed later value',
      groupAtId,
      'group[gt]=a&at[lt]=2024-02-30&id[gt]=3',
      mustBe('at[lt]', DATE_TIME, '2024-02-30'),
    ],
    ['inclusive, not last', scoreId, 'score[lte]=7&id[gt]=3', INCLUSIVE_NOT_LAST],
    ['inclusive, not last, both inclusive', scoreId, 'score[lte]=7&id[gte]=3', INCLUSIVE_NOT_LAST],
    [
      'inclusive in the middle of three',
      groupAtId,
      'group[gt]=a&at[lte]=2024-01-01&id[gt]=3',
      INCLUSIVE_NOT_LAST,
    ],
    ['directions mixed', scoreId, 'score[lt]=7&id[lt]=3', sameWay('score[lt] and id[gt]')],
    [
      'directions mixed, other way',
      scoreId,
      'score[gt]=7&id[gt]=3',
      sameWay('score[lt] and id[gt]'),
    ],
    [
      'directions mixed, inclusive last',
      scoreId,
      'score[lt]=7&id[lte]=3',
      sameWay('score[lt] and id[gt]'),
    ],
    [
      'directions mixed, three fields',
      groupAtId,
      'group[gt]=a&at[gt]=2024-01-01',
      sameWay('group[gt] and at[lt] and id[gt]'),
    ],
  ]

  it.each(cases)('%s: %s', (_name, keys, raw, detail) => {
    expect(rejection(() => readCursorBound(parseQuery(raw), keys))).toEqual({ status: 400, detail })
  })
})

// ---------------------------------------------------------------------------------------------
// 3. keysetWhere
// ---------------------------------------------------------------------------------------------

describe('keysetWhere: the rows past a position, as a Prisma where', () => {
  const d = utc('2024-02-29T00:00:00Z')
  /** `group ≥ 'b' AND (group > 'b' OR (at ≤ d AND (at < d OR id > 9)))`, by its operators. */
  const nested3 = (group: [string, string], at: [string, string], id: string) => ({
    AND: [
      { group: { [group[0]]: 'b' } },
      {
        OR: [
          { group: { [group[1]]: 'b' } },
          { AND: [{ at: { [at[0]]: d } }, { OR: [{ at: { [at[1]]: d } }, { id: { [id]: 9 } }] }] },
        ],
      },
    ],
  })
  const cases: [
    name: string,
    keys: CursorKey[],
    values: unknown[],
    backward: boolean,
    inclusive: boolean,
    expected: Record<string, unknown>,
  ][] = [
    ['1 field asc, forward', idAsc, [5], false, false, { id: { gt: 5 } }],
    ['1 field asc, backward', idAsc, [5], true, false, { id: { lt: 5 } }],
    ['1 field desc, forward', idDesc, [5], false, false, { id: { lt: 5 } }],
    ['1 field desc, backward', idDesc, [5], true, false, { id: { gt: 5 } }],
    ['1 field asc, forward inclusive', idAsc, [5], false, true, { id: { gte: 5 } }],
    ['1 field asc, backward inclusive', idAsc, [5], true, true, { id: { lte: 5 } }],
    ['1 field desc, forward inclusive', idDesc, [5], false, true, { id: { lte: 5 } }],
    ['1 field desc, backward inclusive', idDesc, [5], true, true, { id: { gte: 5 } }],
    [
      '2 fields desc/asc, forward',
      scoreId,
      [7, 3],
      false,
      false,
      { AND: [{ score: { lte: 7 } }, { OR: [{ score: { lt: 7 } }, { id: { gt: 3 } }] }] },
    ],
    [
      '2 fields desc/asc, backward',
      scoreId,
      [7, 3],
      true,
      false,
      { AND: [{ score: { gte: 7 } }, { OR: [{ score: { gt: 7 } }, { id: { lt: 3 } }] }] },
    ],
    [
      '2 fields desc/asc, forward inclusive',
      scoreId,
      [7, 3],
      false,
      true,
      { AND: [{ score: { lte: 7 } }, { OR: [{ score: { lt: 7 } }, { id: { gte: 3 } }] }] },
    ],
    [
      '2 fields desc/asc, backward inclusive',
      scoreId,
      [7, 3],
      true,
      true,
      { AND: [{ score: { gte: 7 } }, { OR: [{ score: { gt: 7 } }, { id: { lte: 3 } }] }] },
    ],
    [
      '2 fields both asc, forward',
      [key('a', 'Int'), key('b', 'Int')],
      [1, 2],
      false,
      false,
      { AND: [{ a: { gte: 1 } }, { OR: [{ a: { gt: 1 } }, { b: { gt: 2 } }] }] },
    ],
    ['a prefix of 2, forward', scoreId, [7], false, false, { score: { lt: 7 } }],
    ['a prefix of 2, backward', scoreId, [7], true, false, { score: { gt: 7 } }],
    ['a prefix of 2, forward inclusive', scoreId, [7], false, true, { score: { lte: 7 } }],
    [
      '3 fields asc/desc/asc, forward',
      groupAtId,
      ['b', d, 9],
      false,
      false,
      nested3(['gte', 'gt'], ['lte', 'lt'], 'gt'),
    ],
    [
      '3 fields asc/desc/asc, backward',
      groupAtId,
      ['b', d, 9],
      true,
      false,
      nested3(['lte', 'lt'], ['gte', 'gt'], 'lt'),
    ],
    [
      '3 fields asc/desc/asc, forward inclusive',
      groupAtId,
      ['b', d, 9],
      false,
      true,
      nested3(['gte', 'gt'], ['lte', 'lt'], 'gte'),
    ],
    [
      '3 fields asc/desc/asc, backward inclusive',
      groupAtId,
      ['b', d, 9],
      true,
      true,
      nested3(['lte', 'lt'], ['gte', 'gt'], 'lte'),
    ],
    [
      'a prefix of 3, backward inclusive',
      groupAtId,
      ['b', d],
      true,
      true,
      { AND: [{ group: { lte: 'b' } }, { OR: [{ group: { lt: 'b' } }, { at: { gte: d } }] }] },
    ],
    [
      'a position with a null: each branch, nulls as equalities',
      groupAtId,
      ['b', null, 9],
      false,
      false,
      {
        AND: [
          { group: { gte: 'b' } },
          {
            OR: [
              { group: { gt: 'b' } },
              { group: 'b', at: { lt: null } },
              { group: 'b', at: null, id: { gt: 9 } },
            ],
          },
        ],
      },
    ],
  ]

  it.each(cases)('%s', (_name, keys, values, backward, inclusive, expected) => {
    expect(keysetWhere(keys, values, backward, inclusive)).toStrictEqual(written(expected))
  })

  // Every position of every order over 24 rows. The selections that differ are gathered into one
  // assertion: an expect per position took 6.6 to 9 s beside the rest of CI, and 60 rows (57,600
  // rows read against their where) still took over 5 s there; 24 rows hold every pair of the
  // first two fields' values twice, so that each position ties on them with another row.
  it('selects exactly the rows past (or at) each position, for every order of three keys', () => {
    // 24 rows over few values, so that positions tie on their first fields; every row a position.
    const rows = Array.from({ length: 24 }, (_, index) => ({
      a: (index * 7) % 3,
      b: (index * 5) % 4,
      id: index + 1,
    }))
    const differing: unknown[] = []
    let checked = 0
    for (const directions of [
      ['asc', 'asc', 'asc'],
      ['desc', 'asc', 'desc'],
      ['asc', 'desc', 'asc'],
      ['desc', 'desc', 'desc'],
    ] as const) {
      const keys = (['a', 'b', 'id'] as const).map((field, index) =>
        key(field, 'Int', directions[index])
      )
      const order = byKey(keys)
      for (const position of rows) {
        for (const [backward, inclusive] of [
          [false, false],
          [false, true],
          [true, false],
          [true, true],
        ] as const) {
          const where = keysetWhere(
            keys,
            [position.a, position.b, position.id],
            backward,
            inclusive
          )
          const past = (row: Row) => {
            const side = Math.sign(order(row, position)) * (backward ? -1 : 1)
            return side > 0 || (inclusive && side === 0)
          }
          const selected = rows.filter((row) => matches(row, where)).map((row) => row.id)
          const expected = rows.filter(past).map((row) => row.id)
          checked++
          if (selected.join() !== expected.join())
            differing.push({ directions, position: position.id, backward, inclusive, selected })
        }
      }
    }
    expect(differing).toEqual([])
    expect(checked).toBe(384)
    // Every pair of the first two fields' values, each on two rows.
    const pairs = new Map<string, number>()
    for (const row of rows)
      pairs.set(`${row.a},${row.b}`, (pairs.get(`${row.a},${row.b}`) ?? 0) + 1)
    expect([...pairs.values()]).toEqual(Array(12).fill(2))
  })
})

// ---------------------------------------------------------------------------------------------
// 4. fetchCursorPage over an in-memory source that evaluates the where it is given
// ---------------------------------------------------------------------------------------------

/** Follows a link in the pure setting: its overrides applied onto the request's query. */
function follow(query: QueryMap, link: LinkTarget): QueryMap {
  expect(link.page).toBeUndefined()
  const next = new Map(query)
  for (const [name, value] of link.overrides ?? []) {
    if (value === undefined) next.delete(name)
    else next.set(name, value)
  }
  return next
}

async function pageOf(
  rows: Row[],
  keys: readonly CursorKey[],
  itemsPerPage: number,
  query: QueryMap
): Promise<CollectionPage<Row>> {
  return fetchCursorPage(memorySource(rows, keys), keys, itemsPerPage, readCursorBound(query, keys))
}

/** Follows `next` (or `previous`) from `start` until the link disappears; the pages in order. */
async function walk(
  rows: Row[],
  keys: readonly CursorKey[],
  itemsPerPage: number,
  start: QueryMap,
  link: 'next' | 'previous',
  followLink: (query: QueryMap, page: CollectionPage<Row>, target: LinkTarget) => QueryMap = (
    query,
    _page,
    target
  ) => follow(query, target)
): Promise<CollectionPage<Row>[]> {
  const pages: CollectionPage<Row>[] = []
  let query: QueryMap | undefined = start
  while (query) {
    if (pages.length > rows.length + 2) throw new Error('the walk does not end')
    const page = await pageOf(rows, keys, itemsPerPage, query)
    pages.push(page)
    const target = page[link]
    query = target ? followLink(query, page, target) : undefined
  }
  return pages
}

const ids = (rows: Row[]): unknown[] => rows.map((row) => row.id)
const cursor = (...entries: [string, string, string][]) =>
  entries.map(([field, operator, value]) => [field, new Map([[operator, value]])] as const)

/** score descending, id ascending: score 3 repeats 13 times, 7 five times, 1 four times. */
const SCORES = [3, 3, 7, 3, 3, 1, 3, 3, 7, 3, 1, 3, 3, 7, 7, 3, 1, 1, 3, 7, 2, 3, 3]
const scored: Row[] = SCORES.map((score, index) => ({ id: index + 1, score }))
const SCORED_ORDER = [
  3, 9, 14, 15, 20, 1, 2, 4, 5, 7, 8, 10, 12, 13, 16, 19, 22, 23, 21, 6, 11, 17, 18,
]

describe('fetchCursorPage: a later key field alone', () => {
  const keys = [key('score', 'Int', 'desc'), key('id', 'Int')]
  it('starts at the first item past it, in the key order, and walks on from there', async () => {
    // The order: 3, 9, 14, 15, 20, 1, 2, 4, ...; the first item whose id is past 15 is 20.
    const page = await pageOf(scored, keys, 3, new Map(cursor(['id', 'gt', '15'])))
    expect(ids(page.items)).toEqual([20, 1, 2])
    expect(page.next?.overrides).toEqual(cursor(['score', 'lt', '3'], ['id', 'gt', '2']))
    expect(page.previous?.overrides).toEqual(cursor(['score', 'gt', '7'], ['id', 'lt', '20']))
    // Walked both ways from there: every item once, in order.
    const start = new Map(cursor(['id', 'gt', '15']))
    const after = (await walk(scored, keys, 3, start, 'next')).flatMap((p) => ids(p.items))
    expect(after).toEqual(SCORED_ORDER.slice(4))
    const before = await walk(
      scored,
      keys,
      3,
      follow(start, page.previous as LinkTarget),
      'previous'
    )
    expect(before.reverse().flatMap((p) => ids(p.items))).toEqual(SCORED_ORDER.slice(0, 4))
    // Backward: the last item (in the key order) whose id is below 5 is 4; the page ends there.
    const back = await pageOf(scored, keys, 3, new Map(cursor(['id', 'lt', '5'])))
    expect(ids(back.items)).toEqual([1, 2, 4])
    // No item past it: an empty page, linking back across the values asked.
    const none = await pageOf(scored, keys, 3, new Map(cursor(['id', 'gt', '23'])))
    expect(none.items).toEqual([])
    expect(none.previous?.overrides).toEqual(cursor(['id', 'lte', '23']))
  })
})

describe('fetchCursorPage: walking the whole collection over a heavily repeating first field', () => {
  const sizes = [1, 2, 3, 4, 5, 7, 13, 22, 23, 24, 100]

  it.each(sizes)('forward following next, %i per page', async (size) => {
    const pages = await walk(scored, scoreId, size, new Map(), 'next')
    expect(pages.flatMap((page) => ids(page.items))).toStrictEqual(SCORED_ORDER)
    expect(pages).toHaveLength(Math.ceil(SCORED_ORDER.length / size))
    pages.forEach((page, index) => {
      expect(page.items.length).toBe(Math.min(size, SCORED_ORDER.length - index * size))
      expect(page.previous !== undefined).toBe(index > 0)
      expect(page.next !== undefined).toBe(index < pages.length - 1)
      expect(page.paginated).toBe(true)
      expect(page.self).toStrictEqual({})
    })
  })

  it.each(sizes)('backward following previous from past the end, %i per page', async (size) => {
    const last = scored.find((row) => row.id === SCORED_ORDER.at(-1)) as Row
    const past = parseQuery(`score[lt]=${last.score}&id[gt]=${last.id}`)
    const [beyond, ...pages] = await walk(scored, scoreId, size, past, 'previous')
    expect(beyond).toStrictEqual({
      items: [],
      paginated: true,
      self: {},
      previous: { overrides: cursor(['score', 'gt', '1'], ['id', 'lte', '18']) },
    })
    expect(pages.reverse().flatMap((page) => ids(page.items))).toStrictEqual(SCORED_ORDER)
    expect(pages).toHaveLength(Math.ceil(SCORED_ORDER.length / size))
    pages.forEach((page, index) => {
      expect(page.previous !== undefined).toBe(index > 0)
      expect(page.next !== undefined).toBe(index < pages.length - 1)
    })
  })

  it('forward from a prefix position skips its whole group, inclusive keeps it', async () => {
    const after = await walk(scored, scoreId, 4, parseQuery('score[lt]=3'), 'next')
    expect(after.flatMap((page) => ids(page.items))).toStrictEqual([21, 6, 11, 17, 18])
    const from = await walk(scored, scoreId, 4, parseQuery('score[lte]=3'), 'next')
    expect(from.flatMap((page) => ids(page.items))).toStrictEqual(SCORED_ORDER.slice(5))
    expect(from[0]?.previous).toStrictEqual({
      overrides: cursor(['score', 'gt', '3'], ['id', 'lt', '1']),
    })
  })

  it('the position a row was deleted from still pages correctly', async () => {
    const without = scored.filter((row) => row.id !== 8)
    const page = await pageOf(without, scoreId, 3, parseQuery('score[lt]=3&id[gt]=7'))
    expect(ids(page.items)).toStrictEqual([10, 12, 13])
    const back = await pageOf(without, scoreId, 3, parseQuery('score[gt]=3&id[lt]=8'))
    expect(ids(back.items)).toStrictEqual([4, 5, 7])
    expect(back.next).toStrictEqual({ overrides: cursor(['score', 'lt', '3'], ['id', 'gt', '7']) })
    expect(back.previous).toStrictEqual({
      overrides: cursor(['score', 'gt', '3'], ['id', 'lt', '4']),
    })
  })
})

/** The reference's SoMany: ids 1..10, DESC on id, 3 per page (reference 3). */
const soManies: Row[] = Array.from({ length: 10 }, (_, index) => ({ id: index + 1 }))

describe('fetchCursorPage: honest links (D4), DESC on id, 3 per page', () => {
  const cases: [
    raw: string,
    items: number[],
    links: { previous?: [string, string]; next?: [string, string] },
  ][] = [
    ['', [10, 9, 8], { next: ['lt', '8'] }],
    ['id[lt]=8', [7, 6, 5], { previous: ['gt', '7'], next: ['lt', '5'] }],
    ['id[lt]=5', [4, 3, 2], { previous: ['gt', '4'], next: ['lt', '2'] }],
    ['id[lt]=4', [3, 2, 1], { previous: ['gt', '3'] }],
    ['id[lt]=2', [1], { previous: ['gt', '1'] }],
    ['id[gt]=7', [10, 9, 8], { next: ['lt', '8'] }],
    ['id[gt]=6', [9, 8, 7], { previous: ['gt', '9'], next: ['lt', '7'] }],
    ['id[gt]=1', [4, 3, 2], { previous: ['gt', '4'], next: ['lt', '2'] }],
    ['id[lte]=8', [8, 7, 6], { previous: ['gt', '8'], next: ['lt', '6'] }],
    ['id[lte]=10', [10, 9, 8], { next: ['lt', '8'] }],
    ['id[gte]=3', [5, 4, 3], { previous: ['gt', '5'], next: ['lt', '3'] }],
    ['id[gte]=8', [10, 9, 8], { next: ['lt', '8'] }],
    ['id[lt]=100', [10, 9, 8], { next: ['lt', '8'] }],
    ['id[gt]=-100', [3, 2, 1], { previous: ['gt', '3'] }],
    // Empty pages past either end: only the link back across the position, inclusive of it.
    ['id[gt]=10', [], { next: ['lte', '10'] }],
    ['id[gt]=13', [], { next: ['lte', '13'] }],
    ['id[lt]=1', [], { previous: ['gte', '1'] }],
    ['id[lt]=-2', [], { previous: ['gte', '-2'] }],
    ['id[gte]=11', [], { next: ['lt', '11'] }],
    ['id[lte]=0', [], { previous: ['gt', '0'] }],
  ]

  it.each(cases)('?%s', async (raw, items, links) => {
    const expected: CollectionPage<Row> = {
      items: items.map((id) => ({ id })),
      paginated: true,
      self: {},
    }
    if (links.previous) expected.previous = { overrides: cursor(['id', ...links.previous]) }
    if (links.next) expected.next = { overrides: cursor(['id', ...links.next]) }
    expect(await pageOf(soManies, idDesc, 3, parseQuery(raw))).toStrictEqual(expected)
  })

  it('an empty collection has no links, with or without a position', async () => {
    for (const raw of ['', 'id[lt]=5', 'id[gt]=5', 'id[lte]=5', 'id[gte]=5']) {
      expect(await pageOf([], idDesc, 3, parseQuery(raw))).toStrictEqual({
        items: [],
        paginated: true,
        self: {},
      })
    }
  })

  it('a prefix position past the end links back inclusively with the prefix only', async () => {
    expect(await pageOf(scored, scoreId, 3, parseQuery('score[lt]=1'))).toStrictEqual({
      items: [],
      paginated: true,
      self: {},
      previous: { overrides: cursor(['score', 'gte', '1']) },
    })
    expect(await pageOf(scored, scoreId, 3, parseQuery('score[gt]=7'))).toStrictEqual({
      items: [],
      paginated: true,
      self: {},
      next: { overrides: cursor(['score', 'lte', '7']) },
    })
  })

  it('reads a keyset window, never an offset: one query when the row at the position is there', async () => {
    const first = memorySource(soManies, idDesc)
    await fetchCursorPage(first, idDesc, 3, null)
    expect(first.windows).toStrictEqual([{ take: 4, backward: false }])

    const source = memorySource(soManies, idDesc)
    await fetchCursorPage(source, idDesc, 3, readCursorBound(parseQuery('id[gt]=7'), idDesc))
    expect(source.windows).toStrictEqual([{ take: 5, backward: true, where: { id: { gte: 7 } } }])
  })

  it('looks one row behind when the row at the position is gone', async () => {
    const source = memorySource(
      soManies.filter((row) => row.id !== 7),
      idDesc
    )
    const page = await fetchCursorPage(
      source,
      idDesc,
      3,
      readCursorBound(parseQuery('id[gt]=7'), idDesc)
    )
    expect(source.windows).toStrictEqual([
      { take: 5, backward: true, where: { id: { gte: 7 } } },
      { take: 1, backward: false, where: { id: { lte: 7 } } },
    ])
    expect(page.items.map((row) => row.id)).toEqual([10, 9, 8])
    expect(page.next).toEqual({ overrides: [['id', new Map([['lt', '8']])]] })
  })

  it.each(['', 'id[lt]=8', 'id[gt]=10', 'id[gte]=3'])(
    'itemsPerPage 0 (?%s): no items, no links, no read',
    async (raw) => {
      const source = memorySource(soManies, idDesc)
      const page = await fetchCursorPage(
        source,
        idDesc,
        0,
        readCursorBound(parseQuery(raw), idDesc)
      )
      expect(page).toStrictEqual({ items: [], paginated: true, self: {} })
      expect(source.windows).toStrictEqual([])
    }
  )
})

describe('fetchCursorPage + renderCollection: the links as IRIs', () => {
  const VIEW = 'hydra:PartialCollectionView'

  async function render(raw: string, rows: Row[], keys: CursorKey[], itemsPerPage = 3) {
    const query = parseQuery(raw)
    const page = await pageOf(rows, keys, itemsPerPage, query)
    return renderCollection(page, {
      path: '/so_manies',
      query,
      parameters: defaultParameterNames,
      context: '/contexts/SoMany',
    })
  }

  const cases: [raw: string, members: number[], view: Record<string, string>][] = [
    [
      'order[id]=desc',
      [10, 9, 8],
      {
        '@id': '/so_manies?order%5Bid%5D=desc',
        '@type': VIEW,
        'hydra:next': '/so_manies?id%5Blt%5D=8&order%5Bid%5D=desc',
      },
    ],
    [
      'order[id]=desc&id[lt]=8',
      [7, 6, 5],
      {
        '@id': '/so_manies?id%5Blt%5D=8&order%5Bid%5D=desc',
        '@type': VIEW,
        'hydra:previous': '/so_manies?id%5Bgt%5D=7&order%5Bid%5D=desc',
        'hydra:next': '/so_manies?id%5Blt%5D=5&order%5Bid%5D=desc',
      },
    ],
    [
      'page=2&id[lt]=8',
      [7, 6, 5],
      {
        '@id': '/so_manies?id%5Blt%5D=8',
        '@type': VIEW,
        'hydra:previous': '/so_manies?id%5Bgt%5D=7',
        'hydra:next': '/so_manies?id%5Blt%5D=5',
      },
    ],
    [
      'order[id]=desc&id[gt]=10',
      [],
      {
        '@id': '/so_manies?id%5Bgt%5D=10&order%5Bid%5D=desc',
        '@type': VIEW,
        'hydra:next': '/so_manies?id%5Blte%5D=10&order%5Bid%5D=desc',
      },
    ],
    [
      'id[lt]=1',
      [],
      {
        '@id': '/so_manies?id%5Blt%5D=1',
        '@type': VIEW,
        'hydra:previous': '/so_manies?id%5Bgte%5D=1',
      },
    ],
    ['', [], { '@id': '/so_manies', '@type': VIEW }],
  ]

  it.each(cases)('?%s', async (raw, members, view) => {
    const rows = raw === '' ? [] : soManies
    expect(await render(raw, rows, idDesc)).toStrictEqual({
      '@context': '/contexts/SoMany',
      '@id': '/so_manies',
      '@type': 'hydra:Collection',
      'hydra:member': members.map((id) => ({ id })),
      'hydra:view': view,
    })
  })

  it('itemsPerPage 0: a view with only @id and @type', async () => {
    expect(await render('itemsPerPage=0&id[lt]=8', soManies, idDesc, 0)).toStrictEqual({
      '@context': '/contexts/SoMany',
      '@id': '/so_manies',
      '@type': 'hydra:Collection',
      'hydra:member': [],
      'hydra:view': { '@id': '/so_manies?id%5Blt%5D=8&itemsPerPage=0', '@type': VIEW },
    })
  })

  it('a multi-field link sets its fields and sorts them with the others (D6)', async () => {
    const first = await render('name=x', scored, scoreId)
    expect(first['hydra:view']).toStrictEqual({
      '@id': '/so_manies?name=x',
      '@type': VIEW,
      'hydra:next': '/so_manies?id%5Bgt%5D=14&name=x&score%5Blt%5D=7',
    })
    const middle = await render('score[lt]=7&name=x&id[gt]=14', scored, scoreId)
    expect(middle['hydra:view']).toStrictEqual({
      '@id': '/so_manies?id%5Bgt%5D=14&name=x&score%5Blt%5D=7',
      '@type': VIEW,
      'hydra:previous': '/so_manies?id%5Blt%5D=15&name=x&score%5Bgt%5D=7',
      'hydra:next': '/so_manies?id%5Bgt%5D=1&name=x&score%5Blt%5D=3',
    })
  })
})

describe('fetchCursorPage: walking by the rendered IRIs (strings, dates, big integers)', () => {
  const D1 = utc('2024-03-01T10:00:00Z')
  const D2 = utc('2024-02-29T23:59:59.999Z')
  const D3 = utc('2024-01-01T00:00:00Z')
  /** In the order group asc, at desc, id asc ('a' < 'a b' < 'b'). */
  const ordered: Row[] = [
    { group: 'a', at: D1, id: 4 },
    { group: 'a', at: D1, id: 9 },
    { group: 'a', at: D2, id: 1 },
    { group: 'a', at: D3, id: 2 },
    { group: 'a', at: D3, id: 7 },
    { group: 'a b', at: D1, id: 3 },
    { group: 'a b', at: D3, id: 5 },
    { group: 'b', at: D1, id: 6 },
    { group: 'b', at: D1, id: 8 },
    { group: 'b', at: D1, id: 10 },
    { group: 'b', at: D2, id: 11 },
    { group: 'b', at: D3, id: 12 },
  ]
  const stored = [...ordered].sort((a, b) => compare(a.id, b.id))

  /** Renders the page and reads the chosen link's IRI back as the next request's query. */
  const byIri =
    (link: 'hydra:next' | 'hydra:previous', seen: string[]) =>
    (query: QueryMap, page: CollectionPage<Row>): QueryMap => {
      const body = renderCollection(page, {
        path: '/things',
        query,
        parameters: defaultParameterNames,
        context: '/contexts/Thing',
      })
      const iri = body['hydra:view']?.[link] as string
      seen.push(iri)
      const [path, search = ''] = iri.split('?')
      expect(path).toBe('/things')
      return parseQuery(search)
    }

  it.each([1, 2, 3, 5, 11, 12, 13])('forward and back again, %i per page', async (size) => {
    const forwardIris: string[] = []
    const forward = await walk(
      stored,
      groupAtId,
      size,
      parseQuery('itemsPerPage=9'),
      'next',
      byIri('hydra:next', forwardIris)
    )
    expect(forward.flatMap((page) => page.items)).toStrictEqual(ordered)
    expect(forward).toHaveLength(Math.ceil(ordered.length / size))
    if (size === 2) {
      expect(forwardIris[0]).toBe(
        '/things?at%5Blt%5D=2024-03-01T10%3A00%3A00.000Z&group%5Bgt%5D=a&id%5Bgt%5D=9&itemsPerPage=9'
      )
      expect(forwardIris[2]).toBe(
        '/things?at%5Blt%5D=2024-03-01T10%3A00%3A00.000Z&group%5Bgt%5D=a%20b&id%5Bgt%5D=3&itemsPerPage=9'
      )
    }

    const past = parseQuery('group[gt]=b&at[lt]=2024-01-01T01:00:00%2B01:00&id[gt]=12')
    const backwardIris: string[] = []
    const [beyond, ...backward] = await walk(
      stored,
      groupAtId,
      size,
      past,
      'previous',
      byIri('hydra:previous', backwardIris)
    )
    expect(beyond?.items).toStrictEqual([])
    expect(beyond?.next).toBeUndefined()
    expect(backwardIris[0]).toBe(
      '/things?at%5Bgt%5D=2024-01-01T01%3A00%3A00%2B01%3A00&group%5Blt%5D=b&id%5Blte%5D=12'
    )
    expect(backward.reverse().flatMap((page) => page.items)).toStrictEqual(ordered)
  })

  it('BigInt keys beyond 2^53 page exactly', async () => {
    const base = 2n ** 62n
    const rows: Row[] = Array.from({ length: 10 }, (_, index) => ({ id: base + BigInt(index) }))
    const keys = [key('id', 'BigInt', 'desc')]
    const seen: string[] = []
    const pages = await walk(rows, keys, 4, new Map(), 'next', byIri('hydra:next', seen))
    expect(pages.flatMap((page) => ids(page.items))).toStrictEqual(
      [...rows].reverse().map((row) => row.id)
    )
    expect(seen).toStrictEqual([
      '/things?id%5Blt%5D=4611686018427387910',
      '/things?id%5Blt%5D=4611686018427387906',
    ])
    const back = await pageOf(rows, keys, 4, parseQuery('id[gt]=4611686018427387906'))
    expect(back.previous).toStrictEqual({
      overrides: cursor(['id', 'gt', '4611686018427387910']),
    })
    expect(back.next).toStrictEqual({ overrides: cursor(['id', 'lt', '4611686018427387907']) })
  })
})

describe('dates without an offset', () => {
  it('are read as UTC, whatever the time zone of the server', () => {
    const key = { field: 'at', direction: 'asc' as const, type: 'DateTime' }
    expect(parseCursorValue(key, '2024-01-31T12:00:00', 'at[gt]')).toEqual(
      new Date('2024-01-31T12:00:00Z')
    )
    expect(parseCursorValue(key, '2024-01-31T12:00', 'at[gt]')).toEqual(
      new Date('2024-01-31T12:00:00Z')
    )
  })
})
