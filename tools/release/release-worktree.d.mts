// The types of release-worktree.mjs, for the benchmarks that check a release out
// (bench/budget-release.ts).

/** A release's tree, checked out apart, and how its dependencies came. */
export interface ReleaseWorktree {
  tree: string
  dependencies: 'linked' | 'installed'
  /** Takes the tree away (its git worktree and folder); a second call does nothing. */
  remove: () => void
}

export function linkNodeModules(tree: string, from?: string): void

export function releaseWorktree(commit: string, options?: { example?: boolean }): ReleaseWorktree
