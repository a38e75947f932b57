import type { DMMF } from '@prisma/generator-helper'
import { getDMMF } from '@prisma/internals'

/** The DMMF datamodel of a schema fragment (models and enums only; the datasource is added). */
export async function loadDatamodel(models: string): Promise<DMMF.Datamodel> {
  const dmmf = await getDMMF({ datamodel: `datasource db {\n  provider = "sqlite"\n}\n${models}` })
  return dmmf.datamodel as DMMF.Datamodel
}
