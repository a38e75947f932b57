import type { DMMF } from '@prisma/generator-helper'
import { getDMMF } from '@prisma/internals'

/**
 * The DMMF datamodel of a schema fragment (models and enums only; the datasource of `provider`,
 * SQLite by default, is added).
 */
export async function loadDatamodel(models: string, provider = 'sqlite'): Promise<DMMF.Datamodel> {
  const datasource = `datasource db {\n  provider = "${provider}"\n}\n`
  const dmmf = await getDMMF({ datamodel: `${datasource}${models}` })
  return dmmf.datamodel as DMMF.Datamodel
}
