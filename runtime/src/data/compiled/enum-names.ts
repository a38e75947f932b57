/**
 * @module
 * The names under which the database stores an enum's values (`@map`), as the `compiled` engine
 * writes and reads them: a value of the plan (the enum's value, `ORG_ONBOARDING`) is written as
 * the database's name of it (`org_onboarding`) in a statement's parameters, and a row's stored
 * name is read back as the value, as Prisma's client does both. Enums whose values are all stored
 * under their own names are not listed (contract/model-source.ts `CompiledEnums`).
 */
import type { CompiledEnums } from '../../contract/model-source.js'
import type { FieldTest } from '../../plan/condition.js'

type Names = Readonly<Record<string, string>>

const stored = (names: Names, value: unknown): unknown =>
  typeof value === 'string' ? (names[value] ?? value) : value

/**
 * `test` of a column of Prisma type `type` with each value written as the database stores it:
 * the test itself when the type is no enum stored under other names.
 */
export function storedTest(
  enums: CompiledEnums | undefined,
  type: string,
  test: FieldTest
): FieldTest {
  const names = enums?.[type]
  return names ? mapTest(names, test) : test
}

function mapTest(names: Names, test: FieldTest): FieldTest {
  switch (test.op) {
    case 'in':
    case 'notIn':
      return { ...test, values: test.values.map((value) => stored(names, value)) }
    case 'not':
      return { ...test, test: mapTest(names, test.test) }
    case 'equals':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return { ...test, value: stored(names, test.value) }
    default:
      return test
  }
}

/** The values of a row position's columns of Prisma `types`, as the database stores them. */
export function storedValues(
  enums: CompiledEnums | undefined,
  types: readonly string[],
  values: readonly unknown[]
): unknown[] {
  return values.map((value, index) => {
    const names = enums?.[types[index] as string]
    return names ? stored(names, value) : value
  })
}

/**
 * The reader of a column of Prisma type `type` holding the database's names of an enum's
 * values, answering the values; undefined when the type is no enum stored under other names.
 */
export function enumReader(
  enums: CompiledEnums | undefined,
  type: string
): ((value: unknown) => unknown) | undefined {
  const names = enums?.[type]
  if (!names) return undefined
  const values = new Map(Object.entries(names).map(([value, name]) => [name, value]))
  return (value) => values.get(value as string) ?? value
}
