/**
 * The enums of the schema whose values the database stores under other names (`@map`), as the
 * `compiled` engine writes and reads them (the runtime's CompiledEnums): each such enum's values
 * with the name each is stored under, read from the DMMF. Prisma's client answers the values;
 * the compiled engine reads the stored names and must answer the same.
 */
import type { DMMF } from '@prisma/generator-helper'

/** Each enum of `datamodel` one of whose values has a `@map`: every value's stored name. */
export function compiledEnums(datamodel: DMMF.Datamodel): Record<string, Record<string, string>> {
  const enums: Record<string, Record<string, string>> = {}
  for (const { name, values } of datamodel.enums) {
    if (!values.some((value) => value.dbName && value.dbName !== value.name)) continue
    enums[name] = Object.fromEntries(
      values.map((value) => [value.name, value.dbName ?? value.name])
    )
  }
  return enums
}
