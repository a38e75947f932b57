import { describe, expect, it } from 'vitest'
import { countSql, dialectOf, keepsRowEstimates, qualifiedTable } from './dialects.js'

describe('dialects', () => {
  it('counts the mapped table, schema-qualified, quoted for the provider', () => {
    expect(countSql('mysql', { name: 'event`s', schema: null })).toBe(
      'SELECT COUNT(*) AS total FROM `event``s`'
    )
    expect(countSql('sqlite', { name: 'event"s', schema: null })).toBe(
      'SELECT COUNT(*) AS total FROM "event""s"'
    )
    expect(qualifiedTable('postgresql', { name: 'Event', schema: 'audit' })).toBe('"audit"."Event"')
    expect(qualifiedTable('sqlserver', { name: 'a]b', schema: null })).toBe('[a]]b]')
  })

  it('reads an estimate only where the database keeps one', () => {
    expect(keepsRowEstimates('postgresql')).toBe(true)
    expect(keepsRowEstimates('sqlite')).toBe(false)
    expect(keepsRowEstimates('mysql')).toBe(false)
    expect(dialectOf('postgresql').estimateSql).toContain('to_regclass($1)')
  })

  it('keeps a page and its count in one snapshot with the level each database needs', () => {
    expect(dialectOf('sqlite').isolationLevel).toBe('Serializable')
    expect(dialectOf('postgresql').isolationLevel).toBe('RepeatableRead')
    expect(dialectOf('mysql').isolationLevel).toBe('RepeatableRead')
    expect(dialectOf('sqlite').likeEscape).toBe('none')
  })
})
