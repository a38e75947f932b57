import { describe, expect, expectTypeOf, it } from 'vitest'
import type { HiddenBy, ModelRules } from '../contract/access-rules.js'
import { hideableBy, hideInverseLinks, type WithInverseLinks } from './inverse-links.js'

/** Tasks and their assignee (a user), users and their tasks: the two sides of one relation. */
const inverses = {
  Task: { assignee: ['User', 'tasks'] },
  User: { tasks: ['Task', 'assignee'] },
} as const

const hiddenOf = async (rules: ModelRules<string> | undefined, model: string, caller: string) =>
  [...((await rules?.[model]?.hidden?.(caller)) ?? [])].sort()

describe('hideInverseLinks', () => {
  it('hides a link whose other side the target hides, for that caller only', async () => {
    const access = {
      Task: { hidden: (caller: string) => (caller === 'guest' ? ['assignee', 'notes'] : []) },
    }
    const rules = hideInverseLinks(access as ModelRules<string>, inverses)
    expect(await hiddenOf(rules, 'User', 'guest')).toEqual(['tasks'])
    expect(await hiddenOf(rules, 'User', 'staff')).toEqual([])
    // The model's own rule is kept as it was.
    expect(await hiddenOf(rules, 'Task', 'guest')).toEqual(['assignee', 'notes'])
  })

  it("joins a model's own hidden fields to the links hidden on their other side", async () => {
    const access = {
      Task: { hidden: () => ['assignee'] },
      User: { hidden: () => ['email'], scope: () => ({ active: true }) },
    }
    const rules = hideInverseLinks(access as ModelRules<string>, inverses)
    expect(await hiddenOf(rules, 'User', 'guest')).toEqual(['email', 'tasks'])
    // Read from the other side's own rule: User hides no task link, so Task hides nothing more.
    expect(await hiddenOf(rules, 'Task', 'guest')).toEqual(['assignee'])
    expect(rules?.User?.scope).toBe(access.User.scope)
  })

  it('leaves rules that hide nothing as they are', () => {
    const access = { Task: { scope: () => ({ id: 1 }) } }
    expect(hideInverseLinks(access as ModelRules<string>, inverses)).toBe(access)
    expect(hideInverseLinks(undefined, inverses)).toBeUndefined()
  })

  it('types a link as hidden where the rule of its other side may hide it', () => {
    type Access = { Task: { hidden: () => ('assignee' | 'notes')[] } }
    type Linked = WithInverseLinks<Access, typeof inverses>
    expectTypeOf<HiddenBy<Linked, 'User'>>().toEqualTypeOf<'tasks'>()
    expectTypeOf<HiddenBy<Linked, 'Task'>>().toEqualTypeOf<'assignee' | 'notes'>()
    type Open = WithInverseLinks<{ Task: { hidden: () => 'notes'[] } }, typeof inverses>
    expectTypeOf<HiddenBy<Open, 'User'>>().toEqualTypeOf<never>()
    type None = Record<never, never>
    expectTypeOf<WithInverseLinks<None, typeof inverses>>().toEqualTypeOf<None>()
  })
})

describe('hideableBy', () => {
  it('names every field of a model with a hidden rule, only the inverse links of the others', () => {
    const access = {
      Task: { hidden: () => ['assignee'] },
      Note: { scope: () => ({ id: 1 }) },
    }
    const rules = hideInverseLinks(access as ModelRules<string>, inverses)
    const task = hideableBy(rules, 'Task')
    expect([task('assignee'), task('title')]).toEqual([true, true])
    const user = hideableBy(rules, 'User')
    expect([user('tasks'), user('email')]).toEqual([true, false])
    expect(hideableBy(rules, 'Note')('id')).toBe(false)
    expect(hideableBy(undefined, 'Task')('assignee')).toBe(false)
  })
})

describe('hideInverseLinks read twice', () => {
  it('gives back the rules it built as they are', () => {
    const access = { Task: { hidden: () => ['assignee'] } }
    const rules = hideInverseLinks(access as ModelRules<string>, inverses)
    expect(hideInverseLinks(rules, inverses)).toBe(rules)
  })
})
