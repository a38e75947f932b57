// The repository's history as the release tools read it: git run in the repository, files at a
// commit, and the commit of a package's last release, the last commit that changed its
// package.json `version` (`npm run version-packages` does, and nothing else does).

import { execFileSync } from 'node:child_process'
import { root } from './release-packages.mjs'

/** Runs git in the repository (`cwd`, default the root); its output, trimmed. */
export function git(args, cwd = root) {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim()
}

/** A file's text at a commit, or undefined when the commit does not hold it. */
export function fileAt(commit, file, cwd = root) {
  try {
    return execFileSync('git', ['show', `${commit}:${file}`], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch {
    return undefined
  }
}

/** The commit a ref names (`HEAD`, a tag), or undefined when there is no such ref. */
export function commitOf(ref, cwd = root) {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd)
  } catch {
    return undefined
  }
}

/**
 * The commit of a package's last release up to `from` (default HEAD); throws when the history
 * does not reach it.
 */
export function releaseCommit(dir, from = 'HEAD', cwd = root) {
  const commit = git(
    ['log', '-1', '--format=%H', '-G"version":', from, '--', `${dir}/package.json`],
    cwd
  )
  if (commit === '') {
    throw new Error(
      `no commit sets ${dir}/package.json's version: the check needs the git history up to the ` +
        'last release (a shallow clone cuts it: clone with the full history)'
    )
  }
  return commit
}
