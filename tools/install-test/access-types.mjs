// The types docs/tutorial-access.md's project gets, checked with its own tsc: `email`, which a
// `hidden` rule depending on the caller may hide, is optional in the member type of the rules
// (HydraMembers), in what `hc` reads and in openapi-typescript's schema; and `hc` types the 401
// and 403 of the guarded `/api/memberships`. A control file comparing the same status with 418
// must fail (TS2367): `=== 401` compiling then says the 401 is typed, not that any number is.

import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { COMMAND_LIMIT_MS, run, userEnvironment } from './commands.mjs'
import { expect } from './expect.mjs'

/** Compiles only where each type says what the rules let a caller receive. */
const CHECK = `import { hc } from 'hono/client'
import type { access } from './access.js'
import type { components } from './api.js'
import type { App } from './app.js'
import type { HydraMembers } from './generated/hydra/index.js'

/** true when K is optional in T (false for a required field, and for \`any\`). */
type MayBeAbsent<T, K extends keyof T> = {} extends Pick<T, K> ? true : false
type Member = HydraMembers<typeof access>['Membership']
export const hideable: MayBeAbsent<Member, 'email'> = true
export const key: MayBeAbsent<Member, 'userId'> = false
export const documented: MayBeAbsent<components['schemas']['Membership'], 'email'> = true

export async function emailOrStatus(): Promise<string> {
  const response = await hc<App>('http://localhost:3000').api.memberships.$get()
  if (response.status === 401) return 'sign in'
  if (response.status === 403) return 'forbidden'
  if (!response.ok) return 'problem'
  const [member] = (await response.json())['hydra:member']
  if (!member) return 'none'
  // @ts-expect-error: email may be absent, and hc says so
  const email: string = member.email
  return email
}
`

/** Type-checks the project with the check, then with the control, which must fail. */
export async function checkAccessTypes(project) {
  const check = path.join(project, 'src/access-types-check.ts')
  writeFileSync(check, CHECK)
  await run('npx tsc --noEmit', project)
  expect(true, 'tsc: email optional in HydraMembers, hc and openapi-typescript; hc types 401/403')

  const control = path.join(project, 'src/access-types-control.ts')
  writeFileSync(control, CHECK.replace('response.status === 403', 'response.status === 418'))
  const result = spawnSync('npx', ['tsc', '--noEmit'], {
    cwd: project,
    env: userEnvironment(),
    encoding: 'utf8',
    timeout: COMMAND_LIMIT_MS,
  })
  rmSync(control)
  expect(
    result.status !== 0 &&
      /access-types-control\.ts\(\d+,\d+\): error TS2367/.test(result.stdout) &&
      !/access-types-check\.ts/.test(result.stdout),
    'tsc: the same client comparing the status with 418 fails (TS2367), so 401 and 403 are typed',
    result.stdout
  )
  rmSync(check)
}
