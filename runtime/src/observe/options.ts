/**
 * @module
 * The app options of operations (docs/operations.md): where the runtime logs, whether it traces,
 * whether it reports timings. Every generated app, resource app and custom collection takes them.
 */
import type { HydraLogger } from './logger.js'

/**
 * What the runtime reports of its operations (docs/operations.md): its log, its spans, its timings.
 */
export interface OperationsOptions {
  /**
   * Where every line the runtime logs goes, as a record (level, message, fields):
   * `(record) => pino[record.level](record.fields, record.message)`. Default: the console.
   */
  logger?: HydraLogger | undefined
  /**
   * OpenTelemetry spans of each operation, its data access and its SQL, through
   * `@opentelemetry/api` when the app has it (default true; `false`: no span).
   */
  tracing?: boolean | undefined
  /** The `Server-Timing` header of pages and items (default true; `false`: none). */
  serverTiming?: boolean | undefined
}
