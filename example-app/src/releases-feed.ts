import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/**
 * Where `/releases` reads its feed, one release per line: a file's path (Node, Bun, Deno), or the
 * feed's text bundled with the app where there are no files to read (Cloudflare Workers,
 * src/worker.ts).
 */
export type ReleasesFeed = string | { text: string }

/**
 * The feed file beside the app (data/releases.ndjson). Empty in a bundle whose modules have no
 * file URL (Workers), which is given the feed's text instead.
 */
export const RELEASES_FEED =
  typeof import.meta.url === 'string' && import.meta.url.startsWith('file:')
    ? fileURLToPath(new URL('../data/releases.ndjson', import.meta.url))
    : ''

/**
 * The feed's lines, read only as far as they are consumed. A file is opened on the first read and
 * closed however the reading ends (the page is known, the client went away, an error): closing
 * the readline interface alone would leave the file open.
 */
export async function* feedLines(feed: ReleasesFeed): AsyncGenerator<string, void, undefined> {
  if (typeof feed !== 'string') {
    yield* feed.text.split('\n')
    return
  }
  const input = createReadStream(feed)
  const lines = createInterface({ input, crlfDelay: Infinity })
  try {
    yield* lines
  } finally {
    lines.close()
    input.destroy()
  }
}
