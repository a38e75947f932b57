import { describe, expect, it } from 'vitest'
import type { KeySpec } from '../contract/keys.js'
import { keySegment, readKeySegment } from './item-key.js'

const single = (kind: KeySpec['kind'], extra: Partial<KeySpec> = {}): KeySpec => ({
  name: 'id',
  kind,
  ...extra,
})
const line: KeySpec = {
  name: 'orderId_productId',
  kind: 'Composite',
  fields: [
    { name: 'orderId', kind: 'Int' },
    { name: 'productId', kind: 'Int' },
  ],
}

describe('item keys', () => {
  it.each([
    ['12', single('Int'), 12],
    ['9007199254740993', single('BigInt'), 9007199254740993n],
    ['-3', single('Float'), -3],
    ['1e%2B21', single('Float'), 1e21],
    ['57.7', single('Decimal'), '57.70'],
    ['0', single('Decimal'), '-0.0'],
    ['2024-01-31T12%3A00%3A00.000Z', single('DateTime'), new Date('2024-01-31T12:00:00Z')],
    ['-_8', single('Bytes'), new Uint8Array([0xfb, 0xff])],
    ['a%2Fb%20c', single('String'), 'a/b c'],
    ['id=..', single('String'), '..'],
    ['id=.', single('String'), '.'],
    ['...', single('String'), '...'],
    ['PRO', single('Enum', { values: ['PRO'] }), 'PRO'],
  ])('%s is written from its key value and reads back', (segment, key, value) => {
    expect(keySegment(key, { id: value })).toBe(segment)
    const read = readKeySegment(key, decodeURI(segment), 'postgresql')
    const expected =
      key.kind === 'Decimal'
        ? segment
        : key.kind === 'Bytes'
          ? new Uint8Array(value as Uint8Array)
          : value
    expect(read).toEqual(expected)
  })

  it('writes a composite key as name=value pairs in the key’s order', () => {
    expect(keySegment(line, { productId: 7, orderId: 3 })).toBe('orderId=3;productId=7')
    expect(readKeySegment(line, 'orderId=3;productId=7', undefined)).toEqual({
      orderId: 3,
      productId: 7,
    })
  })

  it('reads a composite key percent-encoded as a whole, as encodeURIComponent sends it', () => {
    const shelf: KeySpec = {
      name: 'aisle_slot',
      kind: 'Composite',
      fields: [
        { name: 'aisle', kind: 'String' },
        { name: 'slot', kind: 'Int' },
      ],
    }
    const written = keySegment(shelf, { aisle: 'C;d=e/f', slot: 1 })
    expect(written).toBe('aisle=C%3Bd%3De%2Ff;slot=1')
    const sent = encodeURIComponent(written)
    // As Hono's c.req.path has it: reserved characters stay encoded, `%25` too.
    expect(readKeySegment(shelf, sent, undefined)).toEqual({ aisle: 'C;d=e/f', slot: 1 })
    expect(readKeySegment(line, 'orderId%3D3%3BproductId%3D7', undefined)).toEqual({
      orderId: 3,
      productId: 7,
    })
  })

  it.each([
    [single('Int'), '01'],
    [single('Int'), '2147483648'],
    [single('Float'), '1.50'],
    [single('Float'), 'NaN'],
    [single('Decimal'), '57.70'],
    [single('Decimal'), '1e3'],
    [single('DateTime'), '2024-01-31T12:00:00Z'],
    [single('DateTime'), '2024-02-30T00:00:00.000Z'],
    [single('Bytes'), 'AAEC_w=='],
    [single('Bytes'), 'AAEC_x'],
    [single('String', { uuid: true }), 'not-a-uuid'],
    [single('Enum', { values: ['PRO'] }), 'pro'],
    [single('String'), 'id=alice'],
    [single('String'), '%E0%A4%A'],
    [line, 'orderId=3'],
    [line, 'productId=7;orderId=3'],
    [line, 'orderId=3;productId=7;'],
    [line, 'orderId=3;productId=x'],
    [line, 'orderId%3D3%3BproductId%253D7'],
    [line, 'orderId%3D3%3BproductId%3Dx'],
    [line, 'orderId%3D3%3B%E0%A4%A'],
  ])('%j: %s is no key', (key, segment) => {
    expect(readKeySegment(key, segment, 'postgresql')).toBeUndefined()
  })
})
