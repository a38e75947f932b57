/**
 * A request on a kept-alive connection, as the stopping tests send them (Node's agent reusing its
 * sockets, as a proxy's upstream pool does): what it answered, or how it failed and on which
 * kind of socket, so that a connection closed under a client's next request shows as such.
 */
import { type Agent, get } from 'node:http'

/**
 * GET `url` through `agent`: `<status> <Connection header>` of an answer read in full, else the
 * error's code and whether its connection was one reused (or `incomplete`, a body cut short).
 */
export function askKeptAlive(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const sent = get(url, { agent, timeout: 15_000 }, (response) => {
      response.resume()
      response.on('end', () =>
        resolve(
          response.complete
            ? `${response.statusCode} ${response.headers.connection}`
            : `incomplete ${response.statusCode}`
        )
      )
      response.on('error', (error: NodeJS.ErrnoException) => resolve(`${error.code} in a body`))
    })
    sent.on('timeout', () => sent.destroy(new Error('no answer in 15 s')))
    sent.on('error', (error: NodeJS.ErrnoException) =>
      resolve(`${error.code ?? error.message} on a ${sent.reusedSocket ? 'reused' : 'new'} socket`)
    )
  })
}
