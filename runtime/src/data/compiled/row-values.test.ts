import { afterEach, describe, expect, it, vi } from 'vitest'
import { rowReader, utcDateTime } from './row-values.js'

const read = rowReader(['at'], ['DateTime'])
const dateOf = (value: unknown) => read([value]).at as Date

/** The texts the adapters give for `iso`: SQLite's stored text, PostgreSQL's, MariaDB's, and `Z`. */
function textsOf(iso: string): string[] {
  const [seconds, fraction = ''] = iso.slice(0, -1).split('.')
  const trimmed = fraction.replace(/0+$/, '')
  return [
    `${seconds}.${fraction}+00:00`,
    `${seconds}${trimmed ? `.${trimmed}` : ''}+00:00`,
    `${seconds}${fraction === '000' ? '' : `.${fraction}`}+00:00`,
    iso,
  ]
}

afterEach(() => {
  vi.restoreAllMocks()
})

/** The walk's step from year 1000 to 3000: about 412 days and odd hours, minutes and ms. */
const STEP = (86_400_000 * 13 + 3_600_000 * 7 + 60_017) * 31

/**
 * The texts `textsAt` writes of dates from year 1000 to 3000 that `readsRight` refuses, and how
 * many texts it read: gathered for one assertion, so that the walk stays cheap.
 */
function walkDates(
  textsAt: (iso: string) => readonly string[],
  readsRight: (text: string) => boolean
): { differing: string[]; read: number } {
  const differing: string[] = []
  let read = 0
  for (let time = Date.UTC(1000, 0, 1); time < Date.UTC(3000, 0, 1); time += STEP) {
    for (const text of textsAt(new Date(time).toISOString())) {
      read++
      if (!readsRight(text)) differing.push(text)
    }
  }
  return { differing, read }
}

/** Whether `date` is a Date of `expected`'s time and ISO text. */
const sameDate = (date: unknown, expected: Date): date is Date =>
  date instanceof Date &&
  date.getTime() === expected.getTime() &&
  date.toISOString() === expected.toISOString()

describe('dates read from text', () => {
  it('are the Dates `new Date(text)` reads, their ISO text the same', () => {
    const { differing, read } = walkDates(textsOf, (text) => {
      const date = dateOf(text)
      const expected = new Date(text)
      return (
        sameDate(date, expected) && JSON.stringify({ date }) === JSON.stringify({ date: expected })
      )
    })
    expect(differing).toEqual([])
    expect(read).toBeGreaterThan(1_000)
  })

  it('leave any other text to `new Date`, valid or not', () => {
    for (const text of [
      '2024-02-29T12:00:00Z',
      '2024-02-30T00:00:00.000+00:00',
      '2023-02-29T00:00:00+00:00',
      '2024-01-01T24:00:00.000Z',
      '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00.1234Z',
      '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00.000+02:00',
      '2024-01-01 00:00:00+00:00',
      '0999-12-31T23:59:59.999Z',
      '+012024-01-01T00:00:00.000Z',
      'garbage',
    ]) {
      const expected = new Date(text)
      const date = dateOf(text)
      expect(date.getTime(), text).toBe(expected.getTime())
      if (!Number.isNaN(expected.getTime())) expect(date.toISOString()).toBe(expected.toISOString())
    }
    expect(dateOf(1_704_067_200_000).toISOString()).toBe('2024-01-01T00:00:00.000Z')
  })

  it('write their ISO text from the text read, until their time is set', () => {
    const written = vi.spyOn(Date.prototype, 'toISOString')
    const date = dateOf('2024-01-01T00:16:36.000+00:00')
    expect(JSON.stringify(date)).toBe('"2024-01-01T00:16:36.000Z"')
    expect(dateOf('2024-01-01T00:16:36.5+00:00').toISOString()).toBe('2024-01-01T00:16:36.500Z')
    expect(written).not.toHaveBeenCalled()
    date.setUTCFullYear(2025)
    expect(date.toISOString()).toBe('2025-01-01T00:16:36.000Z')
  })
})

describe("the mariadb driver's date-time text read once (utcDateTime)", () => {
  /** What `@prisma/adapter-mariadb`'s `mapRow` makes of the driver's text, read as a Date. */
  const adapterDate = (text: string) => new Date(`${text}Z`)

  it('is the Date the adapter and dateOf make of it, up to six digits of a second', () => {
    const { differing, read } = walkDates(
      (iso) => {
        const plain = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
        return [
          plain,
          `${plain}.${iso.slice(20, 23)}`,
          `${plain}.${iso.slice(20, 23)}456`,
          `${plain}.5`,
        ]
      },
      (text) => {
        const date = utcDateTime(text)
        // A row's reader keeps the Date it is given.
        return sameDate(date, adapterDate(text)) && dateOf(date) === date
      }
    )
    expect(differing).toEqual([])
    expect(read).toBeGreaterThan(1_000)
  })

  it('leaves any other text to the adapter', () => {
    for (const text of [
      '0000-00-00 00:00:00',
      '0999-12-31 23:59:59.999',
      '2023-02-29 00:00:00',
      '2024-01-01 24:00:00',
      '2024-01-01 00:60:00',
      '2024-01-01T00:00:00',
      '2024-01-01 00:00:00.',
      '2024-01-01 00:00:00.1234567',
      '2024-01-01 00:00:00Z',
      '2024-01-01 00:00:00.123+00:00',
      '2024-1-01 00:00:00',
    ])
      expect(utcDateTime(text), text).toBeUndefined()
  })
})

describe('PostgreSQL’s own text of a DateTime (a driver without Prisma 7’s adapter)', () => {
  it.each([
    ['2026-01-02 03:04:05.678+00', '2026-01-02T03:04:05.678Z'],
    ['2026-01-02 03:04:05.678', '2026-01-02T03:04:05.678Z'],
    ['2026-01-02 08:34:05.678+05:30', '2026-01-02T03:04:05.678Z'],
    ['2026-01-01 22:04:05-05', '2026-01-02T03:04:05.000Z'],
    ['03:04:05', '1970-01-01T03:04:05.000Z'],
    ['03:04:05.25+02', '1970-01-01T01:04:05.250Z'],
  ])('reads %s as %s, in any time zone of the process', (text, iso) => {
    expect(dateOf(text).toISOString()).toBe(iso)
  })

  it('leaves a String field holding such a text as it is', () => {
    const strings = rowReader(['name'], ['String'])
    expect(strings(['2026-01-02 03:04:05+05']).name).toBe('2026-01-02 03:04:05+05')
  })
})
