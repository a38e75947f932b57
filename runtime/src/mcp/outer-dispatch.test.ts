import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { recordServingFetch } from '../hono/request/serving-fetch.js'
import type { McpApi } from '../hono/routes/app-options.js'
import { throughApp, throughServingApp } from './outer-dispatch.js'

/** Node's bindings of one request, as `@hono/node-server` hands them: its request and response. */
const nodeBindings = () => ({ incoming: { socket: 'the caller' }, outgoing: { destroy() {} } })

/** The bindings each tool call's request reached the app with. */
function recordingApp() {
  const seen: unknown[] = []
  const app = new Hono().get('/books', (c) => {
    seen.push(c.env)
    return c.json({ ok: true })
  })
  return { app, seen }
}

/** An API whose tool calls are GETs of `target` on the `/mcp` request's origin. */
const api = { request: (_c, target) => new Request(`http://localhost${target}`) } as McpApi

/** Serves one `POST /mcp` whose handler makes one tool call by `dispatch`, with `bindings`. */
async function toolCall(dispatch: ReturnType<typeof throughApp>, bindings: object) {
  const mcp = new Hono().post('/mcp', async (c) =>
    c.body(await (await dispatch(c, '/books')).text())
  )
  return mcp.fetch(new Request('http://localhost/mcp', { method: 'POST' }), bindings)
}

describe('tool calls through the app the API is mounted in', () => {
  it("hand the app the caller's request bindings, but not Node's response to /mcp", async () => {
    for (const through of ['serving', 'given'] as const) {
      const { app, seen } = recordingApp()
      const bindings = nodeBindings()
      recordServingFetch(bindings, app.fetch)
      const dispatch = through === 'serving' ? throughServingApp(api) : throughApp(api, () => app)
      const answer = await toolCall(dispatch, bindings)
      expect(await answer.text()).toBe('{"ok":true}')
      // A streamed collection that fails cuts its own response: never the /mcp one.
      expect(seen, through).toEqual([{ incoming: bindings.incoming }])
    }
  })
})
