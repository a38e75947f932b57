/**
 * Deterministic seed data for the example app: the same rows, with the same ids, on every run.
 * `seed(prisma)` fills an empty database; the counts are exported for tests.
 */
import type { PrismaClient } from '../example-app/src/generated/prisma/client.js'

export const SEED_COUNTS = {
  authors: 25,
  books: 120,
  reviews: 300,
  languages: 8,
  loans: 75,
  activities: 500,
  users: 2,
} as const

const GENRES = ['FICTION', 'SCIENCE', 'HISTORY', 'POETRY', 'CHILDREN'] as const
const FIRST = [
  'Ada',
  'Jorge',
  'Mary',
  'Chinua',
  'Wisława',
  'Italo',
  'Toni',
  'Haruki',
  'Clarice',
  'Naguib',
]
const LAST = [
  'Lovelace',
  'Borges',
  'Shelley',
  'Achebe',
  'Szymborska',
  'Calvino',
  'Morrison',
  'Murakami',
  'Lispector',
  'Mahfouz',
]
const COUNTRIES = ['GB', 'AR', 'NG', 'PL', 'IT', 'US', 'JP', 'BR', 'EG', null]
const WORDS = [
  'Silent',
  'River',
  'Garden',
  'Atlas',
  'Winter',
  'Letters',
  'Machine',
  'Harbour',
  'Night',
  'Mirror',
  'Salt',
  'Orchard',
]
const LANGUAGES = [
  ['ar', 'Arabic'],
  ['de', 'German'],
  ['en', 'English'],
  ['es', 'Spanish'],
  ['fr', 'French'],
  ['it', 'Italian'],
  ['ja', 'Japanese'],
  ['pl', 'Polish'],
] as const

/** mulberry32: a tiny seeded PRNG, so the data is the same on every machine. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const DAY = 24 * 60 * 60 * 1000

/**
 * Fills every empty table with its rows and returns the names of the tables it filled. The data
 * is computed in full every time, so a table filled later gets the same rows as a fresh seed.
 */
export async function seed(prisma: PrismaClient): Promise<string[]> {
  const filled: string[] = []
  const fill = async (
    name: string,
    count: () => Promise<number>,
    create: () => Promise<unknown>
  ) => {
    if ((await count()) > 0) return
    await create()
    filled.push(name)
  }
  const next = random(20261121)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T

  const authorRows = {
    data: Array.from({ length: SEED_COUNTS.authors }, (_, i) => ({
      id: i + 1,
      name: `${FIRST[i % FIRST.length]} ${LAST[(i * 3) % LAST.length]}`,
      country: COUNTRIES[i % COUNTRIES.length] ?? null,
      email: `author${i + 1}@example.org`,
    })),
  }
  const base = Date.UTC(1990, 0, 1)
  const bookRows = {
    data: Array.from({ length: SEED_COUNTS.books }, (_, i) => ({
      id: i + 1,
      title: `${pick(WORDS)} ${pick(WORDS)} ${i + 1}`,
      isbn: `978-0-${String(100000 + i * 7).padStart(6, '0')}-${i % 10}`,
      genre: pick(GENRES),
      pages: 80 + Math.floor(next() * 600),
      price: (5 + Math.floor(next() * 4000) / 100).toFixed(2),
      // Spread over 35 years, not in id order, so "newest first" differs from id order.
      publishedAt: new Date(base + Math.floor(next() * 35 * 365) * DAY),
      authorId: 1 + (i % SEED_COUNTS.authors),
    })),
  }
  const reviewRows = {
    data: Array.from({ length: SEED_COUNTS.reviews }, (_, i) => ({
      id: i + 1,
      rating: 1 + Math.floor(next() * 5),
      body: `Review ${i + 1}: ${pick(WORDS).toLowerCase()} and ${pick(WORDS).toLowerCase()}.`,
      createdAt: new Date(Date.UTC(2024, 0, 1) + i * DAY),
      bookId: 1 + Math.floor(next() * SEED_COUNTS.books),
    })),
  }
  const languageRows = {
    data: LANGUAGES.map(([code, name]) => ({ code, name })),
  }
  const loanRows = {
    data: Array.from({ length: SEED_COUNTS.loans }, (_, i) => ({
      id: i + 1,
      borrower: `Reader ${1 + (i % 30)}`,
      loanedAt: new Date(Date.UTC(2025, 0, 1) + i * DAY),
      returnedAt: i % 4 === 0 ? null : new Date(Date.UTC(2025, 0, 15) + i * DAY),
      // 30 books borrowed two or three times each: /books/popular ranks them.
      bookId: 1 + ((i * 7) % 30),
    })),
  }
  const kinds = ['loan', 'return', 'review', 'new-book'] as const
  const activityRows = {
    data: Array.from({ length: SEED_COUNTS.activities }, (_, i) => {
      const kind = pick(kinds)
      return {
        id: i + 1,
        // Five events a minute share each timestamp, so the feed needs its tie-breaker.
        occurredAt: new Date(Date.UTC(2025, 5, 1) + Math.floor(i / 5) * 60_000),
        kind,
        summary: `${kind} #${i + 1}`,
      }
    }),
  }
  const userRows = {
    data: [
      {
        id: 1,
        email: 'librarian@example.org',
        passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2VlZA$example',
      },
      {
        id: 2,
        email: 'admin@example.org',
        passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2VlZA$example2',
      },
    ],
  }
  await fill(
    'authors',
    () => prisma.author.count(),
    () => prisma.author.createMany(authorRows)
  )
  await fill(
    'books',
    () => prisma.book.count(),
    () => prisma.book.createMany(bookRows)
  )
  await fill(
    'reviews',
    () => prisma.review.count(),
    () => prisma.review.createMany(reviewRows)
  )
  await fill(
    'languages',
    () => prisma.language.count(),
    () => prisma.language.createMany(languageRows)
  )
  await fill(
    'loans',
    () => prisma.loan.count(),
    () => prisma.loan.createMany(loanRows)
  )
  await fill(
    'activities',
    () => prisma.activity.count(),
    () => prisma.activity.createMany(activityRows)
  )
  await fill(
    'users',
    () => prisma.user.count(),
    () => prisma.user.createMany(userRows)
  )
  return filled
}
