/** The Prisma 8 schema of the Prisma 7 schema `text`. */
export function contractSource(text: string): string
export const schemaFile: string
export const contractFile: string
/** Writes contractFile from schemaFile (its folder made first: it is not in the repository). */
export function writeContractSource(): void
