/**
 * @module
 * Which `Host` a request may name (docs/deployment.md#hosts): a well-formed `host[:port]`, and one
 * the operator allows, as Django's `ALLOWED_HOSTS` or Vite's `allowedHosts` do. A request for any
 * other host is refused before its host can reach a link.
 */

/** A DNS name (labels of letters, digits, `-` and `_`), an IPv4 address or a bracketed IPv6 one. */
const HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::([0-9]{1,5}))?$/

/** The longest name DNS allows (253), a dot, a colon and a port. */
const MAX_HOST = 260

/** The hosts allowed when neither `allowedHosts` nor `baseUrl` is given: this machine's. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '.localhost', '127.0.0.1', '[::1]']

/** The name of `host` (`host[:port]`) when it is well formed: lower case, without port or final dot. */
export function hostName(host: string): string | undefined {
  if (host.length > MAX_HOST) return undefined
  const match = HOST.exec(host)
  if (!match) return undefined
  if (match[1] !== undefined && Number(match[1]) > 65535) return undefined
  const name = match[1] === undefined ? host : host.slice(0, -match[1].length - 1)
  return name.toLowerCase().replace(/\.$/, '')
}

/**
 * Whether a host name is allowed by `patterns`: a name matches itself, `.example.com` matches
 * `example.com` and every name under it, `*` matches every name.
 */
export function hostAllowed(name: string, patterns: readonly string[]): boolean {
  for (const raw of patterns) {
    const pattern = raw.toLowerCase()
    if (pattern === '*' || pattern === name) return true
    if (pattern.startsWith('.') && (name === pattern.slice(1) || name.endsWith(pattern)))
      return true
  }
  return false
}
