#!/usr/bin/env node
// Tags a release commit (`npm run release:tag`): for each package, an annotated tag of changesets'
// own form, `@prisma-hydra/runtime@0.2.0` and `@prisma-hydra/generator@0.2.0`, which
// `changeset publish` also creates when it publishes. It refuses a commit that is not a release
// (release-state.mjs says why). The tags are local: push them with `git push origin --tags`.
//
// Usage: node tools/release/tag.mjs [<commit>]
//   <commit>: the release commit (default: the last one HEAD reaches, the last commit that
//   changed the packages' version)

import { commitOf, git, releaseCommit } from './git.mjs'
import { PACKAGE_DIRS } from './release-packages.mjs'
import { manifestsAt, notReleased, releaseTag } from './release-state.mjs'

const ref = process.argv[2] ?? releaseCommit(PACKAGE_DIRS[0])
const commit = commitOf(ref)
const reason = notReleased(ref)
if (commit === undefined || reason !== undefined) {
  console.error(`${ref} is not a release commit: ${reason}`)
  process.exit(1)
}
for (const manifest of manifestsAt(commit)) {
  const tag = releaseTag(manifest)
  if (commitOf(`refs/tags/${tag}`) === commit) {
    console.log(`${tag}: already names ${commit}`)
    continue
  }
  git(['tag', '--annotate', '--message', tag, tag, commit])
  console.log(`${tag}: tagged ${commit}`)
}
