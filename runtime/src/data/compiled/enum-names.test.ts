import { describe, expect, it } from 'vitest'
import { readWhere } from '../../plan/scope-reader.js'
import { enumReader, storedTest, storedValues } from './enum-names.js'
import { rowReader } from './row-values.js'
import { CompiledStatements } from './sql.js'

const enums = { Kind: { ORG_ONBOARDING: 'org_onboarding', OTHER: 'OTHER' } }

describe('enum values stored under other names', () => {
  it('writes each value of a test as the database stores it', () => {
    expect(storedTest(enums, 'Kind', { op: 'equals', value: 'ORG_ONBOARDING' })).toEqual({
      op: 'equals',
      value: 'org_onboarding',
    })
    expect(
      storedTest(enums, 'Kind', {
        op: 'not',
        test: { op: 'in', values: ['OTHER', 'ORG_ONBOARDING'] },
      })
    ).toEqual({ op: 'not', test: { op: 'in', values: ['OTHER', 'org_onboarding'] } })
    // Another type's test, or an enum stored under its own names, is left as it is.
    const test = { op: 'equals', value: 'ORG_ONBOARDING' } as const
    expect(storedTest(enums, 'String', test)).toBe(test)
    expect(storedTest(undefined, 'Kind', test)).toBe(test)
    expect(storedValues(enums, ['Int', 'Kind'], [1, 'ORG_ONBOARDING'])).toEqual([
      1,
      'org_onboarding',
    ])
  })

  it('reads each stored name as its value', () => {
    const read = enumReader(enums, 'Kind')
    expect([read?.('org_onboarding'), read?.('OTHER')]).toEqual(['ORG_ONBOARDING', 'OTHER'])
    expect(enumReader(enums, 'Other')).toBeUndefined()
    const row = rowReader(['kind', 'id'], ['Kind', 'Int'], false, enums)
    expect(row(['org_onboarding', 3])).toEqual({ kind: 'ORG_ONBOARDING', id: 3 })
    expect(row([null, 4])).toEqual({ kind: null, id: 4 })
  })

  it('writes the stored names in the statements of a model and of its relations', () => {
    const model = {
      select: 'SELECT "id", "kind" FROM "Task"',
      columns: { id: ['id', 'Int'], kind: ['kind', 'Kind'] },
      name: 'Task',
      enums,
      models: {
        Task: {
          table: { name: 'Task', schema: null },
          columns: { id: ['id', 'Int'], kind: ['kind', 'Kind'], ownerId: ['ownerId', 'Int'] },
          relations: { owner: { model: 'Owner', owned: true, on: [['ownerId', 'id']] } },
        },
        Owner: {
          table: { name: 'Owner', schema: null },
          columns: { id: ['id', 'Int'], kind: ['kind', 'Kind'] },
          relations: {},
        },
      },
    } as const
    const statements = new CompiledStatements(model, 'postgresql', '"Task"')
    const condition = readWhere({
      kind: { in: ['ORG_ONBOARDING'] },
      owner: { is: { kind: 'ORG_ONBOARDING' } },
    })
    expect(statements.rows({ condition })?.args).toEqual(['org_onboarding', 'org_onboarding'])
  })
})
