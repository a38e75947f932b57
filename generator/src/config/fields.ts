import type { DMMF } from '@prisma/generator-helper'
import { type Problem, reporter } from '../problems.js'
import { FIELD_ANNOTATIONS, readAnnotations, readExtraArgs, readIri } from './annotation-args.js'
import type { FieldModel } from './model.js'

/** What a field's own annotations say: whether it is hidden, and its property IRI. */
export interface FieldAnnotations {
  field: DMMF.Field
  iri: string | undefined
  hidden: boolean
}

/** Reads `@hidden` and `@property(...)` of every field of a model, reporting misuses. */
export function readFieldAnnotations(model: DMMF.Model, problems: Problem[]): FieldAnnotations[] {
  return model.fields.map((field) => {
    const fieldReport = reporter(problems, `Model "${model.name}", field "${field.name}"`)
    const fieldAnnotations = readAnnotations(field.documentation, FIELD_ANNOTATIONS, fieldReport)
    for (const annotation of fieldAnnotations) {
      if (annotation.name === 'hidden' && annotation.args.length > 0) {
        fieldReport({ source: '@hidden', message: 'takes no options; write /// @hidden' })
      }
      if (annotation.name === 'hidden' && field.kind === 'object') {
        fieldReport({
          severity: 'warning',
          source: '@hidden',
          message: 'relation fields are never shown, so @hidden is not needed here',
        })
      }
    }
    const property = fieldAnnotations.filter((annotation) => annotation.name === 'property')
    if (property.length > 1) {
      fieldReport({
        source: '@property',
        message: 'is given more than once; merge the options into one @property(...)',
      })
    }
    const propertyArgs = readExtraArgs(property[0], ['iri'], fieldReport)
    const iri = readIri(propertyArgs.get('iri'), '@property', fieldReport)
    return {
      field,
      iri,
      hidden: fieldAnnotations.some((annotation) => annotation.name === 'hidden'),
    }
  })
}

/** A scalar or enum field of the DMMF as the emitter needs it. */
export function toFieldModel(field: DMMF.Field, datamodel: DMMF.Datamodel): FieldModel {
  const model: FieldModel = {
    name: field.name,
    type: field.type,
    kind: field.kind === 'enum' ? 'enum' : 'scalar',
    isList: field.isList,
    isRequired: field.isRequired,
    uuid: field.nativeType?.[0] === 'Uuid',
  }
  if (field.kind === 'enum') {
    const values = datamodel.enums.find((candidate) => candidate.name === field.type)?.values ?? []
    model.enumValues = values.map((value) => value.name)
  }
  return model
}
