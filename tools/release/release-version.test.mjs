// The version a tarball of `npm run release:pack` bears, in a fresh clone of this repository (its
// HEAD, committed, in a temporary folder, its node_modules linked to this one's): on a commit
// that is no release, a prerelease of the next version naming the commit; on a release commit,
// the version its CHANGELOG tops with. The clone makes one of each from HEAD, whatever HEAD is:
// a commit adding a changeset (no release: a changeset is pending), then a commit of
// `changeset version` and docs-version.mjs, as `npm run version-packages` makes a release. Each
// tarball must record its commit (`gitHead`). Then, without packing, what release-state.mjs says
// of a commit after the release, of a work tree with uncommitted changes, and of the tags.
//
// Usage: npm run test:release (node --test tools/release/release-version.test.mjs)

import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import parseChangeset from '@changesets/parse'
import { PACKAGE_DIRS, root } from './release-packages.mjs'

/**
 * Two packs and a clone: 30 s idle, up to 14 minutes beside the rest of CI on a loaded 2-core
 * machine, before the first pack's build came from turbo's cache.
 */
const TEST_LIMIT_MS = 25 * 60_000
/** Each pack's bound, above pack.mjs's bound on its build. */
const PACK_LIMIT_MS = 20 * 60_000

/** Runs git in `cwd`, committing as a test identity of its own (the clone is thrown away). */
function git(cwd, ...args) {
  return execFileSync(
    'git',
    ['-c', 'user.name=release test', '-c', 'user.email=release-test@localhost', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
  ).trim()
}

/**
 * node_modules of the clone: a folder (git ignores it, so the work tree stays clean) linking
 * each of this repository's packages, except the workspace's own, which link to the clone's.
 */
function linkNodeModules(clone) {
  const modules = path.join(clone, 'node_modules')
  mkdirSync(path.join(modules, '@prisma-hydra'), { recursive: true })
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '@prisma-hydra') continue
    symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry))
  }
  const scope = path.join(root, 'node_modules', '@prisma-hydra')
  for (const name of readdirSync(scope)) {
    const workspace = path.relative(root, path.resolve(scope, readlinkSync(path.join(scope, name))))
    symlinkSync(path.join(clone, workspace), path.join(modules, '@prisma-hydra', name))
  }
}

/** The package.json of each tarball `release:pack` leaves in the clone's `release/`, by folder. */
function packedManifests(clone) {
  const release = path.join(clone, 'release')
  const manifests = {}
  for (const file of readdirSync(release).filter((name) => name.endsWith('.tgz'))) {
    const text = execFileSync('tar', ['-xOzf', path.join(release, file), 'package/package.json'])
    const manifest = JSON.parse(text.toString())
    manifests[manifest.name.split('/')[1]] = { ...manifest, file }
  }
  return manifests
}

/**
 * Runs `npm run release:pack`'s script in the clone; the tarballs' package.json. Its builds share
 * this repository's turbo cache: the first, of the code HEAD holds, is the one this repository
 * made of it (as pack.mjs builds before it stamps the version); the release commit's, whose
 * package.json and CHANGELOG.md differ, builds.
 */
function pack(clone) {
  const result = spawnSync(process.execPath, ['tools/release/pack.mjs'], {
    cwd: clone,
    encoding: 'utf8',
    timeout: PACK_LIMIT_MS,
    env: { ...process.env, TURBO_CACHE_DIR: path.join(root, '.turbo/cache') },
  })
  assert.equal(result.status, 0, `release:pack failed:\n${result.stdout}\n${result.stderr}`)
  return packedManifests(clone)
}

/** Checks both tarballs bear `version` and record `commit`, the generator on the same runtime. */
function assertPacked(manifests, version, commit) {
  assert.deepEqual(Object.keys(manifests).sort(), [...PACKAGE_DIRS].sort())
  for (const dir of PACKAGE_DIRS) {
    const manifest = manifests[dir]
    assert.equal(manifest.version, version, `${manifest.file}: version`)
    assert.equal(manifest.gitHead, commit, `${manifest.file}: the commit it was packed from`)
    assert.equal(manifest.file, `prisma-hydra-${dir}-${version}.tgz`)
  }
  assert.equal(manifests.generator.dependencies['@prisma-hydra/runtime'], `^${version}`)
}

/**
 * Checks that the later steps find the packed tarballs (the clone's release-packages.mjs): each
 * the one of `version`, standing for the name the docs give, that of package.json's version.
 */
async function assertFound(version) {
  const { releaseTarballs } = await import(
    pathToFileURL(path.join(clone, 'tools/release/release-packages.mjs')).href
  )
  const documented = JSON.parse(readFileSync(path.join(clone, 'runtime/package.json'), 'utf8'))
  for (const dir of PACKAGE_DIRS) {
    const found = releaseTarballs()[`@prisma-hydra/${dir}`]
    assert.equal(found.tarball, path.join(clone, 'release', `prisma-hydra-${dir}-${version}.tgz`))
    assert.equal(found.documented, `prisma-hydra-${dir}-${documented.version}.tgz`)
  }
}

/** The version `changeset version` would make of the clone's, from its pending changesets. */
function nextVersion(clone) {
  const { version } = JSON.parse(readFileSync(path.join(clone, 'runtime/package.json'), 'utf8'))
  const folder = path.join(clone, '.changeset')
  const kinds = readdirSync(folder)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .flatMap((file) => parseChangeset(readFileSync(path.join(folder, file), 'utf8')).releases)
    .map((release) => release.type)
  const [major, minor, patch] = version.split('.').map(Number)
  if (kinds.includes('major')) return `${major + 1}.0.0`
  if (kinds.includes('minor')) return `${major}.${minor + 1}.0`
  return `${major}.${minor}.${patch + 1}`
}

/** The version a package's CHANGELOG.md tops with (its first `## ` heading). */
function changelogTop(clone, dir) {
  const text = readFileSync(path.join(clone, dir, 'CHANGELOG.md'), 'utf8')
  return text.match(/^## (\S+)$/m)?.[1]
}

let clone

before(() => {
  clone = mkdtempSync(path.join(tmpdir(), 'prisma-hydra-release-'))
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  git(root, 'clone', '--quiet', '--no-checkout', root, clone)
  git(clone, 'checkout', '--quiet', '--detach', head)
  linkNodeModules(clone)
})

after(() => {
  if (clone) rmSync(clone, { recursive: true, force: true })
})

test('release:pack names what it packs', { timeout: TEST_LIMIT_MS }, async (t) => {
  await t.test('a commit that is no release: a prerelease of the next version', async () => {
    writeFileSync(
      path.join(clone, '.changeset/release-test.md'),
      '---\n"@prisma-hydra/runtime": patch\n---\n\nA change after the last release.\n'
    )
    git(clone, 'add', '.changeset/release-test.md')
    git(clone, 'commit', '--quiet', '--message', 'Add a change after the last release')
    const commit = git(clone, 'rev-parse', 'HEAD')
    const short = git(clone, 'rev-parse', '--short=7', 'HEAD')
    const id = /^\d+$/.test(short) ? `g${short}` : short
    const version = `${nextVersion(clone)}-next.${id}`
    assertPacked(pack(clone), version, commit)
    await assertFound(version)
  })

  await t.test('a release commit: the version its CHANGELOG tops with', async () => {
    const changeset = path.join(clone, 'node_modules/.bin/changeset')
    execFileSync(changeset, ['version'], { cwd: clone, stdio: 'ignore' })
    execFileSync(process.execPath, ['tools/release/docs-version.mjs'], { cwd: clone })
    git(clone, 'add', '--all')
    git(clone, 'commit', '--quiet', '--message', 'Release')
    const commit = git(clone, 'rev-parse', 'HEAD')
    const version = changelogTop(clone, 'runtime')
    assert.match(version, /^\d+\.\d+\.\d+$/)
    assert.equal(changelogTop(clone, 'generator'), version)
    assertPacked(pack(clone), version, commit)
    await assertFound(version)
    const guide = readFileSync(path.join(clone, 'docs/getting-started.md'), 'utf8')
    assert.ok(guide.includes(`prisma-hydra-runtime-${version}.tgz`), 'getting-started.md names it')
  })

  await t.test('after the release, uncommitted changes, and the tags', async () => {
    const { releaseState } = await import(
      pathToFileURL(path.join(clone, 'tools/release/release-state.mjs')).href
    )
    const release = await releaseState()
    assert.equal(release.released, true, release.reason)
    const [major, minor, patch] = release.version.split('.').map(Number)
    const next = `${major}.${minor}.${patch + 1}`

    writeFileSync(path.join(clone, 'README.md'), 'changed\n')
    const dirty = await releaseState()
    assert.equal(dirty.released, false)
    assert.match(dirty.version, new RegExp(`^${next}-next\\.g?[0-9a-f]{7,}\\.dirty$`))
    git(clone, 'commit', '--quiet', '--all', '--message', 'Change the readme')
    const after = await releaseState()
    assert.equal(after.released, false)
    assert.equal(after.reason, `${release.version} was released by ${release.commit.slice(0, 10)}`)

    const tag = spawnSync(process.execPath, ['tools/release/tag.mjs'], { cwd: clone })
    assert.equal(tag.status, 0, tag.stderr?.toString())
    for (const name of ['runtime', 'generator'])
      assert.equal(
        git(clone, 'rev-parse', `@prisma-hydra/${name}@${release.version}^{commit}`),
        release.commit
      )
    const refused = spawnSync(process.execPath, ['tools/release/tag.mjs', 'HEAD'], { cwd: clone })
    assert.notEqual(refused.status, 0, 'a commit after the release is no release to tag')
  })
})
