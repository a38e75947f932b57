/** The value of a Prisma `Json` field as a member shows it: any JSON value, written as stored. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue }
