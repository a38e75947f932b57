/**
 * A Hydra term as a key or type name: `hydra:member` with the prefix (the spec's default),
 * `member` without it (API Platform 4 style). `P` is `boolean` when either may be served.
 */
export type HydraTerm<K extends string, P extends boolean> = P extends false ? K : `hydra:${K}`

/**
 * Prefixed terms built once: a key spelled anew for every response is a new string that the
 * engine must look up in its string table each time it becomes a property name.
 */
const prefixed = new Map<string, string>()

/** A Hydra term, spelled with or without the `hydra:` prefix. */
export function hydraTerm<K extends string, P extends boolean>(
  name: K,
  prefix: P
): HydraTerm<K, P> {
  if (!prefix) return name as HydraTerm<K, P>
  let term = prefixed.get(name)
  if (term === undefined) {
    term = `hydra:${name}`
    // Hydra has a few dozen terms; names beyond that are not kept.
    if (prefixed.size < 100) prefixed.set(name, term)
  }
  return term as HydraTerm<K, P>
}
