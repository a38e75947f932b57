/**
 * @module
 * The promise of `reads: 'credentials'` checked (docs/caching.md#what-is-checked): outside
 * production, the rules of a resource declaring it are called with a view of the request's context
 * that refuses every read of the request beyond its credentials (another header, the query, the
 * URL, the body, the client's address), with a TypeError naming the resource, the rule and what it
 * read. The answer of such a rule would differ between anonymous callers that a shared cache hands
 * one answer.
 */
import type { Context } from 'hono'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import { CALLER_HEADERS } from '../../data/caller-view.js'
import type { AccessRules } from './access-rules.js'

/** What is read of the request that the rule promised not to read. */
type Refuse = (what: string) => never

/**
 * Whether rules are checked: unless `NODE_ENV` is `production` (docs/caching.md,
 * docs/deployment.md). Written as `process.env.NODE_ENV`, which bundlers replace by its value.
 */
function checksRules(): boolean {
  return typeof process === 'undefined' || process.env.NODE_ENV !== 'production'
}

/** The properties of Hono's request a rule reading only credentials may read as they are. */
const REQUEST_KEPT = new Set([
  'param',
  'path',
  'routePath',
  'method',
  'matchedRoutes',
  'routeIndex',
])

/** The properties of the request's runtime bindings that hold its connection (its address). */
const CONNECTION = new Set(['incoming', 'outgoing', 'requestIP', 'remoteAddr', 'server'])

/**
 * The symbols every object may be asked for (`Symbol.toStringTag`...). Any other symbol of a
 * request or its headers is the runtime's own state, which holds every header: undici's
 * `Headers.prototype.entries.call(headers)` and `new Request(request)` read it so.
 */
const WELL_KNOWN = new Set(
  Object.getOwnPropertyNames(Symbol)
    .map((name) => Reflect.get(Symbol, name))
    .filter((value): value is symbol => typeof value === 'symbol')
)

/**
 * A view of `real` answering `read` for its properties, their descriptors included (Hono's `raw`
 * and `env` are own fields), and `instanceof` as `real`. Its target is an empty object, not `real`:
 * Node's `util.inspect` shows a proxy's target without calling its traps.
 */
function view<T extends object>(real: T, read: (property: string | symbol) => unknown): T {
  return new Proxy(Object.create(null) as T, {
    get: (_, property) => read(property),
    getOwnPropertyDescriptor(_, property) {
      const own = Reflect.getOwnPropertyDescriptor(real, property)
      if (!own) return undefined
      const value = read(property)
      return { value, writable: true, enumerable: own.enumerable === true, configurable: true }
    },
    has: (_, property) => Reflect.has(real, property),
    ownKeys: () => Reflect.ownKeys(real),
    getPrototypeOf: () => Reflect.getPrototypeOf(real),
    set: (_, property, value) => Reflect.set(real, property, value),
  })
}

/** A view of `target` answering `read` for its properties but its internal state's. */
function guarded<T extends object>(
  target: T,
  whole: string,
  refuse: Refuse,
  read: (target: T, property: string | symbol) => unknown
): T {
  return view(target, (property) => {
    if (typeof property === 'symbol' && !WELL_KNOWN.has(property))
      return refuse(`${whole} (the runtime's internal state)`)
    return read(target, property)
  })
}

/** `value` read from `target`, a method bound to it (Hono's objects keep private fields). */
function kept(target: object, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property, target)
  return typeof value === 'function' ? value.bind(target) : value
}

/** The request's `Headers`, answering only the credentials' ones. */
function credentialHeaders(headers: Headers, allowed: ReadonlySet<string>, refuse: Refuse) {
  const checked = (name: string) => {
    if (!allowed.has(name.toLowerCase())) refuse(`the request header ${name}`)
    return name
  }
  return guarded(headers, 'every request header', refuse, (target, property) => {
    if (property === 'get') return (name: string) => target.get(checked(name))
    if (property === 'has') return (name: string) => target.has(checked(name))
    // Spreading, `for...of`, `new Headers(...)`, `Object.fromEntries(...)` and `new Map(...)`
    // all read every header through the iterator.
    if (property === Symbol.iterator) return refuse('every request header (iterating Headers)')
    if (typeof property === 'symbol') return kept(target, property)
    return refuse(`every request header (Headers.${property})`)
  })
}

/** Hono's request, answering only its credentials and its route. */
function credentialRequest(request: Context['req'], allowed: ReadonlySet<string>, refuse: Refuse) {
  const raw = (original: Request) =>
    guarded(original, 'the whole request', refuse, (target, property) => {
      if (property === 'headers') return credentialHeaders(target.headers, allowed, refuse)
      if (property === 'method' || typeof property === 'symbol') return kept(target, property)
      return refuse(`the request's ${property}`)
    })
  return view(request, (property) => {
    if (property === 'header')
      return (name?: string) => {
        if (name === undefined) return refuse('every request header (c.req.header())')
        if (!allowed.has(name.toLowerCase())) return refuse(`the request header ${name}`)
        return request.header(name)
      }
    if (property === 'raw') return raw(request.raw)
    if (typeof property === 'symbol' || REQUEST_KEPT.has(property)) return kept(request, property)
    return refuse(`c.req.${property}`)
  })
}

/** The runtime's bindings (`c.env`), without the connection they hold on Node, Bun and Deno. */
function credentialBindings(env: unknown, refuse: Refuse): unknown {
  if (typeof env !== 'object' || env === null) return env
  return view(env, (property) => {
    if (typeof property === 'string' && CONNECTION.has(property))
      return refuse(`the connection (c.env.${property}: the client's address)`)
    return kept(env, property)
  })
}

/** `c` as a rule reading only credentials sees it: any other read of the request throws. */
function credentialContext(c: Context, allowed: ReadonlySet<string>, refuse: Refuse): Context {
  return view(c, (property) => {
    if (property === 'req') return credentialRequest(c.req, allowed, refuse)
    if (property === 'env') return credentialBindings(c.env, refuse)
    return kept(c, property)
  })
}

/** A rule (`scope`, `guard`, `hidden`, an operation's), called through the check. */
function checkedRule<F extends (c: Context) => unknown>(
  rule: F | undefined,
  allowed: ReadonlySet<string>,
  named: string
): F | undefined
function checkedRule<F extends (c: Context) => unknown>(
  rule: F | null | undefined,
  allowed: ReadonlySet<string>,
  named: string
): F | null | undefined
function checkedRule<F extends (c: Context) => unknown>(
  rule: F | null | undefined,
  allowed: ReadonlySet<string>,
  named: string
): F | null | undefined {
  if (typeof rule !== 'function') return rule
  const headers = [...allowed].join(', ')
  const refuse: Refuse = (what) => {
    throw new TypeError(
      `${named} read ${what}, but the resource declares reads: 'credentials' (only the ${headers} headers and what middleware derives from them): read only those, or declare nothing (docs/caching.md#what-is-checked)`
    )
  }
  return ((c: Context) => rule(credentialContext(c, allowed, refuse))) as F
}

/** The rules already checked, by the rules and the authentication settings. */
const checked = new WeakMap<AccessRules, WeakMap<object, AccessRules>>()
const DEFAULT_SETTINGS = {}

/**
 * `access` with the rules of every resource declaring `reads: 'credentials'` checked, when
 * `checksRules()`; `access` itself otherwise, or when none declares it.
 */
export function checkedAccess(
  access: AccessRules | undefined,
  settings: AuthenticationSettings | undefined
): AccessRules | undefined {
  if (!access || !checksRules()) return access
  let bySettings = checked.get(access)
  if (!bySettings) {
    bySettings = new WeakMap()
    checked.set(access, bySettings)
  }
  const key = settings ?? DEFAULT_SETTINGS
  let rules = bySettings.get(key)
  if (!rules) {
    rules = checkRules(access, settings?.vary ?? CALLER_HEADERS)
    bySettings.set(key, rules)
  }
  return rules
}

function checkRules(access: AccessRules, vary: readonly string[]): AccessRules {
  const allowed = new Set(vary.map((name) => name.toLowerCase()))
  const out: Record<string, AccessRules[string]> = {}
  for (const [model, rules] of Object.entries(access)) {
    if (rules?.reads !== 'credentials') {
      out[model] = rules
      continue
    }
    const operations = Object.fromEntries(
      Object.entries(rules.operations ?? {}).map(([name, own]) => [
        name,
        own && {
          ...own,
          scope: checkedRule(own.scope, allowed, `The scope of ${model} (${name})`),
          guard: checkedRule(own.guard, allowed, `The guard of ${model} (${name})`),
        },
      ])
    )
    out[model] = {
      ...rules,
      scope: checkedRule(rules.scope, allowed, `The scope of ${model}`),
      guard: checkedRule(rules.guard, allowed, `The guard of ${model}`),
      hidden: checkedRule(rules.hidden, allowed, `The hidden rule of ${model}`),
      shownWhere: checkedRule(rules.shownWhere, allowed, `The shownWhere rule of ${model}`),
      ...(rules.operations ? { operations } : {}),
    }
  }
  return out
}
