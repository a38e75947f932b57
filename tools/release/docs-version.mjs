#!/usr/bin/env node
// Part of `npm run version-packages`, after `changeset version`: the pages that tell a user which
// release to install name the new one. Each release tarball's file name
// (`prisma-hydra-runtime-0.1.0.tgz`) and each release tag or pinned version
// (`@prisma-hydra/runtime@0.1.0`) and each release packed by version (`release:pack -- 0.1.0`) in
// them becomes the packages' new version, so that at a release
// commit they name its own tarballs (the clean-project test installs what they name). And every
// page's mark of a section newer than the last release, a line `*Unreleased: in no release yet.*`,
// becomes the release that now holds it, `*Since 0.3.0.*` (docs/versioning.md).
//
// Usage: node tools/release/docs-version.mjs

import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PACKAGE_DIRS, packageJson, root } from './release-packages.mjs'

/** The pages naming the release to install. */
const PAGES = [
  'README.md',
  'docs/getting-started.md',
  'docs/prisma-8.md',
  'docs/tutorial-access.md',
  'docs/versioning.md',
]

/** A version as these pages write it: `0.2.0`, `1.0.0-rc.1`. */
const VERSION = String.raw`\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?`

/**
 * The mark of a section the next release brings, a line of its own under the heading, and what
 * it becomes in that release.
 */
const UNRELEASED = /^\*Unreleased: in no release yet\.\*$/gm
const since = (version) => `*Since ${version}.*`

const { version } = packageJson(PACKAGE_DIRS[0])
const names = '(runtime|generator)'
const tarball = new RegExp(String.raw`(prisma-hydra-${names}-)${VERSION}(\.tgz)`, 'g')
const tagged = new RegExp(`(@prisma-hydra/${names}@)${VERSION}`, 'g')
const packed = new RegExp(`(release:pack -- )${VERSION}`, 'g')

/** Every page of the users' docs: the README and docs/. */
const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

for (const page of pages) {
  const file = path.join(root, page)
  const text = readFileSync(file, 'utf8')
  let updated = text.replace(UNRELEASED, since(version))
  if (PAGES.includes(page)) {
    updated = updated
      .replace(tarball, (_, start, _name, end) => `${start}${version}${end}`)
      .replace(tagged, (_, start) => `${start}${version}`)
      .replace(packed, (_, start) => `${start}${version}`)
  }
  if (updated !== text) {
    writeFileSync(file, updated)
    console.log(`${page}: names ${version}`)
  }
}
