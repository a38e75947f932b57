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
