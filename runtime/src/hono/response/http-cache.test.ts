import { describe, expect, it } from 'vitest'
import { cacheControlFor, entityTag, preconditionAnswer } from './http-cache.js'

const tag = entityTag('{"a":1}', 'application/ld+json; charset=utf-8')

describe('preconditions (RFC 9110 13.1.1, 13.1.2, 13.2.2)', () => {
  it.each([
    ['no header', undefined, undefined, 'send'],
    ['If-None-Match naming the tag', undefined, tag, 304],
    ['If-None-Match naming it weakly, in a list', undefined, `"x", W/${tag}`, 304],
    ['If-None-Match: *', undefined, '*', 304],
    ['If-None-Match naming another', undefined, '"other"', 'send'],
    ['If-Match naming the tag', tag, undefined, 'send'],
    ['If-Match: *', '*', undefined, 'send'],
    ['If-Match naming another', '"nope"', undefined, 412],
    ['If-Match naming it weakly (strong comparison)', `W/${tag}`, undefined, 412],
    ['If-Match holding, If-None-Match too', tag, tag, 304],
    ['If-Match failing first', '"nope"', tag, 412],
    ['a malformed If-Match', 'nope', undefined, 412],
  ] as const)('%s', (_, ifMatch, ifNoneMatch, answer) => {
    expect(preconditionAnswer(ifMatch, ifNoneMatch, tag)).toBe(answer)
  })

  it('without a validator: only * holds or matches', () => {
    expect(preconditionAnswer('*', undefined, undefined)).toBe('send')
    expect(preconditionAnswer(tag, undefined, undefined)).toBe(412)
    expect(preconditionAnswer(undefined, '*', undefined)).toBe(304)
    expect(preconditionAnswer(undefined, tag, undefined)).toBe('send')
  })
})

describe('entity tags', () => {
  it('are strong, of the exact bytes and the media type', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect(entityTag('{"a":1}', 'application/ld+json; charset=utf-8')).toBe(tag)
    expect(entityTag('{"a":1} ', 'application/ld+json; charset=utf-8')).not.toBe(tag)
    expect(entityTag('{"a":1}', 'application/json; charset=utf-8')).not.toBe(tag)
  })
})

describe('Cache-Control of a caller-dependent response', () => {
  it.each([
    ['none configured, not caller-dependent', undefined, undefined, undefined],
    ['configured, not caller-dependent', 'public, max-age=60', undefined, 'public, max-age=60'],
    ['none configured', undefined, {}, 'private'],
    [
      'public directives dropped, private ones kept',
      'public, max-age=60, s-maxage=600, proxy-revalidate, must-revalidate',
      { vary: ['Authorization'] },
      'private, max-age=60, must-revalidate',
    ],
  ] as const)('%s', (_, configured, caller, expected) => {
    expect(cacheControlFor(configured, caller)).toBe(expected)
  })
})
