// The checks' two tools: an assertion that prints what it checked, and a GET of a JSON answer.

/** Throws `message` (with `detail`) unless `condition` holds; prints `ok  message` when it does. */
export function expect(condition, message, detail) {
  if (!condition)
    throw new Error(
      `${message}${detail === undefined ? '' : `: ${JSON.stringify(detail, null, 2)}`}`
    )
  console.log(`ok  ${message}`)
}

/** GETs `url` (with `headers`) and reads its answer, which must be JSON. */
export async function get(url, headers = {}) {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) })
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
