/**
 * Links into the repository's docs for what `prisma-hydra init` prints: a user has the package,
 * not the docs folder. test/init/init-docs.test.ts checks that each page and heading exists.
 */

const DOCS = 'https://github.com/prisma-hydra/prisma-hydra/blob/main/docs/'

/** The page `page` of docs/ (`getting-started.md`), at the section `heading` when given. */
export function docLink(page: string, heading?: string): string {
  return heading ? `${DOCS}${page}#${anchor(heading)}` : `${DOCS}${page}`
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-')
}
