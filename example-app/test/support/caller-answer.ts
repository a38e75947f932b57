/**
 * What a caller is answered, read as the access tests compare it: the status, the headers and the
 * JSON body of one request sent with the caller's bearer token (none: anonymous).
 */
export interface Answer {
  status: number
  headers: Headers
  body: Record<string, unknown>
}

/** `GET origin + path` with `token` as the bearer token, when given. */
export async function answerTo(
  origin: string,
  path: string,
  token: string | undefined
): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

/** An answer's headers without those that differ between any two responses (`Date`, length). */
export const comparableHeaders = (answer: Answer) =>
  [...answer.headers].filter(([name]) => name !== 'date' && name !== 'content-length')
