// The published packages and their release tarballs: `npm run release:pack` writes them into
// `release/` (git-ignored), named as `npm pack` names them after the version it packed
// (release-state.mjs), and every later step (the package checks, the clean-project test) reads
// them from there.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root folder. */
export const root = fileURLToPath(new URL('../../', import.meta.url))

/** Where the release tarballs go. */
export const releaseDir = path.join(root, 'release')

/** The folders of the published packages, the runtime first (the generator depends on it). */
export const PACKAGE_DIRS = ['runtime', 'generator']

/** A package's package.json as the repository holds it. */
export function packageJson(dir) {
  return JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'))
}

/** How `npm pack` names a package's tarballs: `@prisma-hydra/runtime` is `prisma-hydra-runtime-`. */
function tarballPrefix(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}-`
}

/** `npm pack`'s file name: `@prisma-hydra/runtime` 0.2.0 is `prisma-hydra-runtime-0.2.0.tgz`. */
function tarballName({ name, version }) {
  return `${tarballPrefix(name)}${version}.tgz`
}

/**
 * The release tarballs `npm run release:pack` left in `release/`, by package name: each one's
 * path (`tarball`), the folder of its package (`dir`), and the file name the docs give it
 * (`documented`: that of the package.json version, the last release, which a prerelease tarball
 * stands in for). Throws, naming the command, when `release/` lacks one.
 */
export function releaseTarballs() {
  const files = existsSync(releaseDir) ? readdirSync(releaseDir) : []
  const tarballs = {}
  for (const dir of PACKAGE_DIRS) {
    const manifest = packageJson(dir)
    const prefix = tarballPrefix(manifest.name)
    const packed = files.filter((file) => file.startsWith(prefix) && file.endsWith('.tgz'))
    if (packed.length !== 1) {
      throw new Error(
        `release/ holds ${packed.length} tarballs of ${manifest.name}, not one: run \`npm run release:pack\` first`
      )
    }
    const tarball = path.join(releaseDir, packed[0])
    tarballs[manifest.name] = { tarball, dir, documented: tarballName(manifest) }
  }
  return tarballs
}
