// better-sqlite3's addon
//
// Its install script downloads a prebuilt binary for the platform from GitHub (prebuild-install)
// and compiles SQLite from source when that fails, as it does offline: 2 to 10 minutes on a loaded
// CI machine. A user online gets the prebuilt binary; so does this test, from a local mirror
// (prebuild-install's npm_config_better_sqlite3_binary_host) serving the addon the workspace
// compiled from the same version for the same Node.js ABI and platform. A request for any other
// version is a 404, and the install then compiles, as it would offline.

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { homedir } from 'node:os'
import path from 'node:path'
import { root } from './commands.mjs'

/** The mirror: `env` for the install command, what it was asked for, and `close`. */
export const prebuiltMirror = { env: {}, served: 0, requested: [], url: undefined, close: () => {} }

/** Serves the workspace's addon, packed in `work`, when the workspace has one. */
export async function startPrebuiltMirror(work) {
  const workspacePackage = path.join(root, 'node_modules/better-sqlite3')
  const addon = path.join(workspacePackage, 'build/Release/better_sqlite3.node')
  if (!existsSync(addon)) return
  const { version } = JSON.parse(readFileSync(path.join(workspacePackage, 'package.json'), 'utf8'))
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  const tarball = path.join(work, name)
  const tar = spawnSync('tar', [
    '-czf',
    tarball,
    '-C',
    workspacePackage,
    'build/Release/better_sqlite3.node',
  ])
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`)
  const body = readFileSync(tarball)
  const server = createServer((request, response) => {
    prebuiltMirror.requested.push(request.url)
    if (request.url === `/v${version}/${name}`) {
      prebuiltMirror.served++
      response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length })
      response.end(body)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `http://127.0.0.1:${server.address().port}`
  prebuiltMirror.env = { npm_config_better_sqlite3_binary_host: host }
  prebuiltMirror.url = `${host}/v${version}/${name}`
  prebuiltMirror.close = () => {
    server.close()
    // prebuild-install keeps what it downloads in the npm cache, by URL: this URL's port never
    // comes back, so its entry would only take space.
    const digest = createHash('sha512').update(prebuiltMirror.url).digest('hex').slice(0, 6)
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: npm's own setting, not a turbo input
    const cache = process.env.npm_config_cache ?? path.join(homedir(), '.npm')
    rmSync(path.join(cache, '_prebuilds', `${digest}-${name.replace(/[^a-zA-Z0-9.]+/g, '-')}`), {
      force: true,
    })
  }
  console.log(`better-sqlite3 ${version}: prebuilt binary offered at ${prebuiltMirror.url}`)
}

/** Says whether the install used the mirror's binary or compiled, when it asked at all. */
export function reportPrebuiltMirror() {
  if (prebuiltMirror.requested.length === 0) return
  console.log(
    `better-sqlite3: ${prebuiltMirror.served ? 'prebuilt binary installed' : 'compiled from source'} (asked for ${prebuiltMirror.requested.join(', ')})`
  )
}
