/** The database named in a server URL's path. */
export function databaseName(url: string): string
/** `url` pointing at database `name`. */
export function withDatabase(url: string, name: string): string
/** Creates the database named in `url` (PostgreSQL or MySQL/MariaDB). */
export function createDatabase(url: string): Promise<void>
/** Drops the database named in `url` if it exists. */
export function dropDatabase(url: string): Promise<void>
/** Creates a new, empty, uniquely named database on the server of `serverUrl`. */
export function createScratchDatabase(
  serverUrl: string,
  options?: { prefix?: string }
): Promise<{ url: string; name: string; drop: () => Promise<void> }>
/** The server's version if the server of `url` answers; rejects with the reason otherwise. */
export function checkServer(url: string, options?: { timeoutMs?: number }): Promise<string>
