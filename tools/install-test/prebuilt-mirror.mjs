// better-sqlite3's addon
//
// Its install script downloads a prebuilt binary for the platform from GitHub (prebuild-install)
// and compiles SQLite from source when that fails, as it does offline: 2 to 10 minutes on a loaded
// CI machine. A user online gets the prebuilt binary; so does this test, from a local mirror
// (prebuild-install's npm_config_better_sqlite3_binary_host) serving the addon the workspace
// compiled from the same version for the same Node.js ABI and platform, and those an earlier run
// of the compatibility matrix compiled for other Node.js versions and kept (`keepAddon`). A
// request for any other version is a 404, and the install then compiles, as it would offline.

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { homedir } from 'node:os'
import path from 'node:path'
import { root } from './commands.mjs'

/** The mirror: `env` for the install command, what it was asked for, and `close`. */
export const prebuiltMirror = { env: {}, served: 0, requested: [], close: () => {} }

/** The file names of the addons the mirror offers. */
const offeredNames = new Set()

/** prebuild-install's file name of the addon of better-sqlite3 `version` for Node.js ABI `abi`. */
function addonName(version, abi) {
  return `better-sqlite3-v${version}-node-v${abi}-${process.platform}-${process.arch}.tar.gz`
}

/** Packs the addon an installed better-sqlite3 (`packageDir`) holds into `tarball`. */
function packAddon(packageDir, tarball) {
  const tar = spawnSync('tar', [
    '-czf',
    tarball,
    '-C',
    packageDir,
    'build/Release/better_sqlite3.node',
  ])
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`)
}

/** The installed better-sqlite3 of `modules` (a node_modules folder), with its addon and version. */
function installedAddon(modules) {
  const packageDir = path.join(modules, 'better-sqlite3')
  const addon = path.join(packageDir, 'build/Release/better_sqlite3.node')
  if (!existsSync(addon)) return undefined
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'))
  return { packageDir, version }
}

/**
 * Serves the workspace's addon, packed in `work`, when the workspace has one, and every addon
 * kept in `keptDir` (the compatibility matrix's cache).
 */
export async function startPrebuiltMirror(work, keptDir) {
  const offered = new Map()
  const workspace = installedAddon(path.join(root, 'node_modules'))
  if (workspace) {
    const name = addonName(workspace.version, process.versions.modules)
    packAddon(workspace.packageDir, path.join(work, name))
    offered.set(`/v${workspace.version}/${name}`, path.join(work, name))
  }
  if (keptDir && existsSync(keptDir)) {
    for (const name of readdirSync(keptDir)) {
      const version = /^better-sqlite3-v([^-]+)-node-v\d+-/.exec(name)?.[1]
      if (version) offered.set(`/v${version}/${name}`, path.join(keptDir, name))
    }
  }
  if (offered.size === 0) return
  for (const urlPath of offered.keys())
    offeredNames.add(urlPath.slice(urlPath.lastIndexOf('/') + 1))
  const server = createServer((request, response) => {
    prebuiltMirror.requested.push(request.url)
    const file = offered.get(request.url)
    if (file) {
      prebuiltMirror.served++
      const body = readFileSync(file)
      response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length })
      response.end(body)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `http://127.0.0.1:${server.address().port}`
  prebuiltMirror.env = { npm_config_better_sqlite3_binary_host: host }
  prebuiltMirror.close = () => {
    server.close()
    // prebuild-install keeps what it downloads in the npm cache, by URL: this URL's port never
    // comes back, so its entries would only take space.
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: npm's own setting, not a turbo input
    const cache = process.env.npm_config_cache ?? path.join(homedir(), '.npm')
    for (const urlPath of offered.keys()) {
      const digest = createHash('sha512').update(`${host}${urlPath}`).digest('hex').slice(0, 6)
      const name = urlPath.slice(urlPath.lastIndexOf('/') + 1)
      rmSync(path.join(cache, '_prebuilds', `${digest}-${name.replace(/[^a-zA-Z0-9.]+/g, '-')}`), {
        force: true,
      })
    }
  }
  for (const urlPath of offered.keys())
    console.log(`better-sqlite3: prebuilt binary offered at ${host}${urlPath}`)
}

/**
 * Keeps the addon the install of `project` compiled for Node.js ABI `abi` in `keptDir`, for the
 * mirror of later runs; does nothing when the mirror offered one for it.
 */
export function keepAddon(project, abi, keptDir) {
  const installed = installedAddon(path.join(project, 'node_modules'))
  if (!installed) return
  const name = addonName(installed.version, abi)
  const kept = path.join(keptDir, name)
  if (offeredNames.has(name) || existsSync(kept)) return
  mkdirSync(keptDir, { recursive: true })
  packAddon(installed.packageDir, `${kept}.partial`)
  renameSync(`${kept}.partial`, kept) // whole or absent: a run stopped halfway keeps nothing
  console.log(`better-sqlite3: the addon compiled for ABI ${abi} kept as ${kept}`)
}

/** Says whether the install used the mirror's binary or compiled, when it asked at all. */
export function reportPrebuiltMirror() {
  if (prebuiltMirror.requested.length === 0) return
  console.log(
    `better-sqlite3: ${prebuiltMirror.served ? 'prebuilt binary installed' : 'compiled from source'} (asked for ${prebuiltMirror.requested.join(', ')})`
  )
}
