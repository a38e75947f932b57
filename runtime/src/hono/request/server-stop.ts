/**
 * @module
 * Whether the server that handed a request to the app has begun to stop, found from that
 * request's bindings (`c.env`): readiness answers `503` from then on, so that a load balancer takes
 * the instance out of rotation while it still serves (docs/deployment.md#stopping-the-server).
 */

// Keyed by each request's own bindings object, which lives as long as the request.
const stops = new WeakMap<object, () => boolean>()

/** Records that the request whose bindings are `env` is served by a server `stopping` tells of. */
export function recordServerStop(env: object, stopping: () => boolean): void {
  stops.set(env, stopping)
}

/** Whether the server of the request whose bindings are `env` recorded that it is stopping. */
export function serverStopping(env: unknown): boolean {
  return typeof env === 'object' && env !== null && stops.get(env)?.() === true
}
