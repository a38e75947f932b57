/**
 * @module
 * The API's OAuth protected-resource metadata (RFC 9728), for an app whose 401 asks for a bearer
 * token (`authentication.challenge`): `/.well-known/oauth-protected-resource` under the mount
 * path, naming the API's URL as the protected resource, how a token is sent
 * (`bearer_methods_supported`: the `Authorization` header, the one place the runtime's callers
 * are known by a token) and, when the app names them, the authorization servers that issue
 * tokens for it. A 401 of the API names the document in its challenge (`resource_metadata`,
 * RFC 9728 §5.1), so that a client meeting it finds where to get a token.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import type { ApiLocation } from '../../hydra/documentation.js'
import { apiLocation } from '../request/location.js'
import { validatedText } from '../response/validated.js'

/** The metadata's path under the mount path: the well-known URI where the API is at the root. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'

/** Whether `settings` declare a bearer challenge, and so a resource a token opens. */
export function declaresBearer(settings: AuthenticationSettings | undefined): boolean {
  return settings?.challenge !== undefined && /^bearer(\s|$)/i.test(settings.challenge.trim())
}

/** The URL of the metadata of the API at `location`. */
const metadataUrl = ({ origin, base }: ApiLocation) => `${origin}${base}${PROTECTED_RESOURCE_PATH}`

/** `GET /.well-known/oauth-protected-resource`: the metadata, with a validator. */
export function serveProtectedResource(c: Context, settings: AuthenticationSettings): Response {
  const { origin, base } = apiLocation(c)
  const servers = settings.authorizationServers
  const metadata = {
    resource: `${origin}${base}`,
    ...(servers !== undefined && servers.length > 0 ? { authorization_servers: [...servers] } : {}),
    bearer_methods_supported: ['header'],
  }
  return validatedText(c, JSON.stringify(metadata), { 'Content-Type': 'application/json' })
}

/**
 * Adds `resource_metadata` to the bearer challenge of every 401 of the API that has none: the
 * runtime's guards' and those of the app's middleware inside the API's app.
 */
export const linkResourceMetadata: MiddlewareHandler = async (c, next) => {
  await next()
  if (c.res.status !== 401) return
  const challenge = c.res.headers.get('WWW-Authenticate')
  if (
    challenge === null ||
    !/^bearer(\s|$)/i.test(challenge) ||
    /resource_metadata=/i.test(challenge)
  )
    return
  const parameter = `resource_metadata="${metadataUrl(apiLocation(c))}"`
  const rest = challenge.trim().slice('bearer'.length).trim()
  const response = new Response(c.res.body, c.res)
  response.headers.set(
    'WWW-Authenticate',
    `${challenge.trim().slice(0, 'bearer'.length)} ${rest ? `${rest}, ${parameter}` : parameter}`
  )
  c.res = undefined
  c.res = response
}
