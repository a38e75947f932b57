import { describe, expect, it } from 'vitest'
import { rawUrlEncode, urlDecode } from './url-encoding.js'

describe('urlDecode', () => {
  it.each([
    ['plain', 'plain'],
    ['a+b', 'a b'],
    ['a%20b', 'a b'],
    ['%2fdummies%2F8', '/dummies/8'],
    ['caf%C3%A9', 'café'],
    ['café', 'café'],
    ['%zz', '%zz'],
    ['100%', '100%'],
    ['%4', '%4'],
    ['%%41', '%A'],
    ['%2B', '+'],
    ['%E9', '\uFFFD'],
    ['%EF%BB%BFx', '\uFEFFx'],
  ])('%j → %j', (input, expected) => {
    expect(urlDecode(input)).toBe(expected)
  })
})

describe('rawUrlEncode', () => {
  it.each([
    ['AZaz09-_.~', 'AZaz09-_.~'],
    [' ', '%20'],
    ['[]', '%5B%5D'],
    ['/:+#', '%2F%3A%2B%23'],
    ["!*'()", '%21%2A%27%28%29'],
    ['&=?%', '%26%3D%3F%25'],
    ['café', 'caf%C3%A9'],
    ['😀', '%F0%9F%98%80'],
    ['\uD800', '%EF%BF%BD'],
  ])('%j → %j', (input, expected) => {
    expect(rawUrlEncode(input)).toBe(expected)
  })
})
