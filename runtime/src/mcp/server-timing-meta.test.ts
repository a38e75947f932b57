import { describe, expect, it } from 'vitest'
import { ServerTiming } from '../observe/server-timing.js'
import { parseServerTiming } from './server-timing-meta.js'

describe('parseServerTiming', () => {
  it("reads the runtime's own header, a handoff's cause as its description", () => {
    const timing = new ServerTiming()
    timing.add('db', 1.5)
    timing.add('serialize', 0.25)
    timing.handoff('embed')
    expect(parseServerTiming(timing.header() ?? '')).toEqual([
      { name: 'db', dur: 1.5 },
      { name: 'serialize', dur: 0.25 },
      { name: 'handoff', desc: 'embed' },
    ])
  })

  it('reads quoted descriptions whole, the first of a parameter, and skips what it cannot', () => {
    expect(
      parseServerTiming(
        'cache;desc="hit, \\"warm\\"; db";dur=2, a ; DUR = 3 ; dur=4 ;x=1, ;dur=5, b;dur=fast, c;desc=d'
      )
    ).toEqual([
      { name: 'cache', desc: 'hit, "warm"; db', dur: 2 },
      { name: 'a', dur: 3 },
      { name: 'b' },
      { name: 'c', desc: 'd' },
    ])
    expect(parseServerTiming('')).toEqual([])
  })
})
