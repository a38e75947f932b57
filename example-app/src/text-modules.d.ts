/** A text file wrangler bundles as a string (wrangler.jsonc, `rules`): the releases feed. */
declare module '*.ndjson' {
  const text: string
  export default text
}
