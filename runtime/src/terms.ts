/**
 * A Hydra term as a key or type name: `hydra:member` with the prefix (the default),
 * `member` without it (API Platform 4 style). `P` is `boolean` when either may be served.
 */
export type HydraTerm<K extends string, P extends boolean> = P extends false ? K : `hydra:${K}`

/** A Hydra term, spelled with or without the `hydra:` prefix. */
export function hydraTerm<K extends string, P extends boolean>(
  name: K,
  prefix: P
): HydraTerm<K, P> {
  return (prefix ? `hydra:${name}` : name) as HydraTerm<K, P>
}
