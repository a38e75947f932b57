// A TypeDoc plugin: a property of an object literal without a comment of its own takes the comment
// of the property it satisfies, as an editor's hover shows it. A table such as
// `SCALAR_TYPES = { String: { orderable: true, ... } } as const satisfies Record<string, ScalarType>`
// is documented once, by the interface its rows satisfy (ScalarType's `orderable`), and TypeDoc
// would otherwise ask each row's `orderable` for a comment of its own (`validation.notDocumented`).
// Written here because TypeDoc has no option for it; TypeScript's checker gives the satisfied
// property (`getContextualType`).
import { Converter, ReflectionKind, TypeScript as ts } from 'typedoc'

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (reflection.comment || !reflection.kindOf(ReflectionKind.Property)) return
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0]
    if (!declaration || !ts.isPropertyAssignment(declaration)) return
    const satisfied = context.checker
      .getContextualType(declaration.parent)
      ?.getProperty(reflection.name)
    if (satisfied) reflection.comment = context.getComment(satisfied, ReflectionKind.Property)
  })
}
