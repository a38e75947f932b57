// What `npm run release:pack` packs, in a fresh clone of this repository without tags (as a clone
// of a host that keeps none): its HEAD, committed, in a temporary folder, its node_modules linked
// to this one's. A release is packed by its version alone, from the commit main's history says
// made it, under that version and recording that commit (`gitHead`); a version that is no
// release is refused, saying which are. Then, without packing (CI's "release tarballs" stage packs
// HEAD, and every pack reads its tarballs' version and `gitHead` back): what release-state.mjs
// says of a commit adding a changeset, of a release commit made as `npm run version-packages`
// makes one, of a commit after it, of a work tree with uncommitted changes, and of the tags.
//
// Usage: npm run test:release (node --test tools/release/release-version.test.mjs)

import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import parseChangeset from '@changesets/parse'
import { PACKAGE_DIRS, root } from './release-packages.mjs'
import { linkNodeModules } from './release-worktree.mjs'

/**
 * Two packs, one of them installing its release's own dependencies, and a clone: minutes idle,
 * up to 14 beside the rest of CI on a loaded 2-core machine.
 */
const TEST_LIMIT_MS = 25 * 60_000
/** Each pack's bound, above pack.mjs's bounds on its install and its build. */
const PACK_LIMIT_MS = 20 * 60_000

/** Runs git in `cwd`, committing as a test identity of its own (the clone is thrown away). */
function git(cwd, ...args) {
  return execFileSync(
    'git',
    ['-c', 'user.name=release test', '-c', 'user.email=release-test@localhost', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
  ).trim()
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

/** Runs `npm run release:pack -- <version>`'s script in the clone. */
function packRelease(version) {
  return spawnSync(process.execPath, ['tools/release/pack.mjs', version], {
    cwd: clone,
    encoding: 'utf8',
    timeout: PACK_LIMIT_MS,
  })
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

/** The version `changeset version` would make of the clone's, from its pending changesets. */
function nextVersion() {
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
function changelogTop(dir) {
  const text = readFileSync(path.join(clone, dir, 'CHANGELOG.md'), 'utf8')
  return text.match(/^## (\S+)$/m)?.[1]
}

/** The clone's release-state.mjs, as of its files now. */
async function releaseStateOfClone() {
  const url = pathToFileURL(path.join(clone, 'tools/release/release-state.mjs'))
  const { releaseState } = await import(url.href)
  return releaseState()
}

/** The commit whose subject is "Release <version>", as `npm run version-packages` is committed. */
function commitTitled(version) {
  const commits = git(clone, 'log', '--format=%H %s')
    .split('\n')
    .filter((line) => line.slice(41) === `Release ${version}`)
    .map((line) => line.slice(0, 40))
  assert.equal(commits.length, 1, `one commit "Release ${version}" in the history`)
  return commits[0]
}

let clone

before(() => {
  clone = mkdtempSync(path.join(tmpdir(), 'prisma-hydra-release-'))
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  git(root, 'clone', '--quiet', '--no-tags', '--no-checkout', root, clone)
  git(clone, 'checkout', '--quiet', '--detach', head)
  linkNodeModules(clone, root)
})

after(() => {
  if (clone) rmSync(clone, { recursive: true, force: true })
})

test('release:pack packs a release by its version', { timeout: TEST_LIMIT_MS }, async (t) => {
  assert.equal(git(clone, 'tag', '--list'), '', 'the clone holds no tags')
  const latest = readFileSync(path.join(clone, 'runtime/CHANGELOG.md'), 'utf8').match(
    /^## (\S+)$/m
  )[1]
  // The two ways a release's tree gets its dependencies: 0.2.0's own, installed; the latest's,
  // the clone's when their lock files name the same packages (on a release commit, always).
  for (const version of new Set(['0.2.0', latest])) {
    await t.test(`${version}, from the commit "Release ${version}"`, () => {
      const head = git(clone, 'rev-parse', 'HEAD')
      const result = packRelease(version)
      assert.equal(result.status, 0, `release:pack ${version}:\n${result.stdout}\n${result.stderr}`)
      const commit = commitTitled(version)
      assertPacked(packedManifests(clone), version, commit)
      // What was built is that commit's tree: its changelog, whatever the stamp says.
      const tarball = path.join(clone, 'release', `prisma-hydra-runtime-${version}.tgz`)
      const changelog = execFileSync('tar', ['-xOzf', tarball, 'package/CHANGELOG.md']).toString()
      assert.equal(changelog.trim(), git(clone, 'show', `${commit}:runtime/CHANGELOG.md`))
      // 0.2.0's lock file names other packages than HEAD's (no MCP SDK): installed apart.
      if (version === '0.2.0') assert.match(result.stdout, /its dependencies installed/)
      assert.equal(git(clone, 'rev-parse', 'HEAD'), head, 'the clone stays at its commit')
      assert.equal(git(clone, 'status', '--porcelain', '--untracked-files=no'), '')
      assert.equal(git(clone, 'worktree', 'list').split('\n').length, 1, 'no tree left behind')
    })
  }

  await t.test('a version that is no release, refused', () => {
    const packed = packedManifests(clone)
    const unknown = packRelease('9.9.9')
    assert.notEqual(unknown.status, 0)
    assert.match(unknown.stderr, /no release 9\.9\.9 in the history of HEAD/)
    assert.match(
      unknown.stderr,
      new RegExp(`the releases it holds: .*${latest.replaceAll('.', '\\.')}`)
    )
    assert.match(unknown.stderr, /0\.2\.0/)
    const malformed = packRelease('latest')
    assert.notEqual(malformed.status, 0)
    assert.match(malformed.stderr, /"latest" is not a version/)
    assert.deepEqual(packedManifests(clone), packed, 'a refused version packs nothing')
  })
})

test('release-state.mjs names each commit', { timeout: 60_000 }, async (t) => {
  await t.test('a commit that is no release: a prerelease of the next version', async () => {
    writeFileSync(
      path.join(clone, '.changeset/release-test.md'),
      '---\n"@prisma-hydra/runtime": patch\n---\n\nA change after the last release.\n'
    )
    git(clone, 'add', '.changeset/release-test.md')
    git(clone, 'commit', '--quiet', '--message', 'Add a change after the last release')
    const short = git(clone, 'rev-parse', '--short=7', 'HEAD')
    const id = /^\d+$/.test(short) ? `g${short}` : short
    const state = await releaseStateOfClone()
    assert.equal(state.released, false)
    assert.equal(state.commit, git(clone, 'rev-parse', 'HEAD'))
    assert.equal(state.version, `${nextVersion()}-next.${id}`)
  })

  await t.test('a release commit: the version its CHANGELOG tops with', async () => {
    // A section of the docs the release brings, marked as docs/versioning.md says.
    const page = path.join(clone, 'docs/paging.md')
    const marked = '## A section the release brings\n\n*Unreleased: in no release yet.*\n'
    writeFileSync(page, `${readFileSync(page, 'utf8')}\n${marked}`)
    git(clone, 'commit', '--quiet', '--all', '--message', 'Document a change')
    const changeset = path.join(clone, 'node_modules/.bin/changeset')
    execFileSync(changeset, ['version'], { cwd: clone, stdio: 'ignore' })
    execFileSync(process.execPath, ['tools/release/docs-version.mjs'], { cwd: clone })
    git(clone, 'add', '--all')
    git(clone, 'commit', '--quiet', '--message', 'Release')
    const version = changelogTop('runtime')
    assert.match(version, /^\d+\.\d+\.\d+$/)
    assert.equal(changelogTop('generator'), version)
    const state = await releaseStateOfClone()
    assert.equal(state.released, true, state.reason)
    assert.equal(state.version, version)
    assert.equal(state.commit, git(clone, 'rev-parse', 'HEAD'))
    const guide = readFileSync(path.join(clone, 'docs/getting-started.md'), 'utf8')
    assert.ok(guide.includes(`prisma-hydra-runtime-${version}.tgz`), 'getting-started.md names it')
    const paging = readFileSync(page, 'utf8')
    assert.ok(paging.endsWith(`## A section the release brings\n\n*Since ${version}.*\n`))
    for (const name of readdirSync(path.join(clone, 'docs')).filter((file) => file.endsWith('.md')))
      assert.ok(
        !readFileSync(path.join(clone, 'docs', name), 'utf8').includes('\n*Unreleased'),
        `docs/${name} marks no section unreleased`
      )
  })

  await t.test('after the release, uncommitted changes, and the tags', async () => {
    const release = await releaseStateOfClone()
    assert.equal(release.released, true, release.reason)
    const [major, minor, patch] = release.version.split('.').map(Number)
    const next = `${major}.${minor}.${patch + 1}`

    writeFileSync(path.join(clone, 'README.md'), 'changed\n')
    const dirty = await releaseStateOfClone()
    assert.equal(dirty.released, false)
    assert.match(dirty.version, new RegExp(`^${next}-next\\.g?[0-9a-f]{7,}\\.dirty$`))
    git(clone, 'commit', '--quiet', '--all', '--message', 'Change the readme')
    const after = await releaseStateOfClone()
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
