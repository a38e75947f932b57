// The types of release-history.mjs, for the benchmarks that check a release out
// (bench/budget-release.ts).

/** The commit of the release `version` in HEAD's history; throws, saying why, when there is none. */
export function releaseCommitOf(version: string): string
