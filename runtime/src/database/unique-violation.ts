/**
 * @module
 * Whether a write failed only because a row with its key exists already: what a writer racing
 * another to insert the same row may ignore, and nothing else.
 */
import { causesOf } from './causes.js'

/**
 * Whether `error` (or an error it wraps) is a unique-key violation: Prisma 7's `P2002` of a model
 * write, or the `UniqueConstraintViolation` its driver adapters name under a raw statement's
 * `P2010` (SQLite's `SQLITE_CONSTRAINT_PRIMARYKEY`, PostgreSQL's 23505, MySQL/MariaDB's 1062).
 */
export function isUniqueViolation(error: unknown): boolean {
  for (const current of causesOf(error)) {
    const { code, kind } = current as { code?: unknown; kind?: unknown }
    if (code === 'P2002' || kind === 'UniqueConstraintViolation') return true
  }
  return false
}
