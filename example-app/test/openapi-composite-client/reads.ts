/**
 * What the composite-keys client reads (client.ts), in a file of its own that needs no generated
 * types: the test imports it to type what it gets from the client it type-checks and runs.
 */

/** What a read answered: its status, the `@id` it names, and the detail of a problem. */
export interface Read {
  status: number
  iri: string | undefined
  detail: string | undefined
}

/** The fixture's items as a client reads them by their `{id}`, each request's path kept in `sent`. */
export interface CompositeReads {
  line(id: string): Promise<Read & { quantity: number | undefined; notes: string | undefined }>
  notesOfLine(id: string): Promise<Read & { texts: Array<string | undefined> }>
  shelf(id: string): Promise<Read & { label: string | undefined }>
}

/** The client of `baseUrl`, each request's path pushed onto `sent`. */
export type CompositeClient = (baseUrl: string, sent?: string[]) => CompositeReads
