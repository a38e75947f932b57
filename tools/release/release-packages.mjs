// The published packages and their release tarballs: `npm run release:pack` writes them into
// `release/` (git-ignored), named as `npm pack` names them, and every later step (the package
// checks, the clean-project test) reads them from there.

import { existsSync, readFileSync } from 'node:fs'
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

/** `npm pack`'s file name: `@prisma-hydra/runtime` 0.1.0 is `prisma-hydra-runtime-0.1.0.tgz`. */
function tarballName({ name, version }) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`
}

/**
 * The release tarballs of the packages' current versions, by package name, and the folder of
 * each; throws, naming the command, when `release/` lacks one.
 */
export function releaseTarballs() {
  const tarballs = {}
  for (const dir of PACKAGE_DIRS) {
    const manifest = packageJson(dir)
    const tarball = path.join(releaseDir, tarballName(manifest))
    if (!existsSync(tarball)) {
      throw new Error(
        `${path.relative(root, tarball)} is missing: run \`npm run release:pack\` first`
      )
    }
    tarballs[manifest.name] = { tarball, dir }
  }
  return tarballs
}
