/**
 * The generator's programmatic entry: the steps `prisma generate` runs through the package's bin
 * (`prisma-hydra`, the `provider` of a schema's `generator hydra` block), for tools and tests that
 * run them without Prisma's CLI: read the annotations (`parseAnnotations`) and the platform file
 * (`parseGlobalConfig`), resolve the model (`resolveHydraModel`), emit the files (`emitFiles`), or
 * all of these at once (`buildHydra`). Applications use the package through `prisma generate`
 * alone.
 *
 * @module \@prisma-hydra/generator
 */
export { type Annotation, type AnnotationValue, parseAnnotations } from './annotations/parse.js'
export { type GlobalConfig, parseGlobalConfig } from './config/paging/global.js'
export { resolveHydraModel } from './config/resolve.js'
export type {
  FieldModel,
  HydraModel,
  OperationModel,
  ResolvedPaging,
  ResourceModel,
} from './config/schema/model.js'
export { emitFiles, type FileMap } from './emit/emit.js'
export { type BuildInput, type BuildResult, buildHydra } from './generate.js'
export { formatProblem, GenerationError, type Problem } from './problems.js'
