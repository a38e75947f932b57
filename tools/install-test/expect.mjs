// The checks' two tools: an assertion that prints what it checked, and a GET of a JSON answer.

/** Throws `message` (with `detail`) unless `condition` holds; prints `ok  message` when it does. */
export function expect(condition, message, detail) {
  if (!condition)
    throw new Error(
      `${message}${detail === undefined ? '' : `: ${JSON.stringify(detail, null, 2)}`}`
    )
  console.log(`ok  ${message}`)
}

/**
 * How long one answer may take. In CI the project's server runs beside `npm test` at a lower CPU
 * priority (.ci/run), where a first page has taken over 10 s; the bound only stops a hang.
 */
export const ANSWER_LIMIT_MS = 60_000

/** GETs `url` (with `headers`) and reads its answer, which must be JSON. */
export async function get(url, headers = {}) {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(ANSWER_LIMIT_MS) })
  const text = await response.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`GET ${url}: not JSON (${response.status}): ${text.slice(0, 200)}`)
  }
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    link: response.headers.get('link'),
    challenge: response.headers.get('www-authenticate'),
    body,
  }
}
