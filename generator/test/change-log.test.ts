import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const LOG = (id: string) => `
model HydraChange {
  id    ${id} @id @default(autoincrement())
  tx    BigInt?
  model String
  op    String
  key   Json
  image Json
  at    DateTime @default(now())
  @@map("hydra_changes")
}`
const CLOCK = `
model HydraChangeClock {
  id  Int    @id
  seq BigInt
  @@map("hydra_changes_clock")
}`
const NOTE = (doc: string) => `
/// @pagination
${doc
  .split('\n')
  .map((line) => `/// ${line}`)
  .join('\n')}
model Note {
  id    Int    @id
  owner String
}`

async function generate(models: string, provider = 'sqlite') {
  const datamodel = await loadDatamodel(models, provider)
  try {
    const { files } = buildHydra({
      datamodel,
      provider,
      clientModule: '../prisma/client.js',
      schema: models,
    })
    return { files, problems: [] as string[] }
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return { files: new Map<string, string>(), problems: error.problems.map(formatProblem) }
  }
}

describe('@changes', () => {
  it.each([
    ['sqlite', LOG('Int'), 'CREATE TRIGGER "hydra_changes_Note_update" AFTER UPDATE ON "Note"'],
    ['postgresql', LOG('BigInt'), 'pg_current_xact_id()::text::bigint'],
    ['mysql', LOG('BigInt') + CLOCK, 'ON DUPLICATE KEY UPDATE `seq` = `seq` + 1'],
  ])('writes changes.sql for %s', async (provider, log, expected) => {
    const { files, problems } = await generate(NOTE('@changes') + log, provider)
    expect(problems).toEqual([])
    expect(files.get('changes.sql')).toContain(expected)
  })

  it('writes no changes.sql when no model says @changes', async () => {
    const { files } = await generate(NOTE('') + LOG('Int'))
    expect(files.has('changes.sql')).toBe(false)
  })

  it.each([
    [
      'an option',
      NOTE('@changes(retention: 5)') + LOG('Int'),
      'sqlite',
      ['error: Model "Note", @changes, option "retention": unknown option: @changes takes none'],
    ],
    [
      'twice',
      NOTE('@changes\n@changes') + LOG('Int'),
      'sqlite',
      [
        'error: Model "Note", @changes: is given more than once; merge the options into one @changes(...)',
      ],
    ],
    [
      'without @pagination',
      `/// @changes\nmodel Note {\n  id Int @id\n}${LOG('Int')}`,
      'sqlite',
      [
        'error: Model "Note", @changes: the model is not exposed: add /// @pagination(...) (or a bare /// @pagination) to serve it',
      ],
    ],
    [
      'a database without triggers of ours',
      NOTE('@changes'),
      'sqlserver',
      [
        'error: Model "Note", @changes: the change log is written for sqlite, postgresql, mysql; this schema\'s provider is sqlserver',
      ],
    ],
    [
      'on a model keyed by a date',
      `/// @pagination\n/// @changes\nmodel Note {\n  day DateTime @id\n}${LOG('Int')}`,
      'sqlite',
      [
        'error: Model "Note", @changes: the key field day is a DateTime: the change feed names items by keys of Int, BigInt, Float, String or enum fields only',
      ],
    ],
  ])('refuses @changes %s', async (_, models, provider, expected) => {
    const { problems } = await generate(models, provider)
    expect(problems.filter((problem) => problem.startsWith('error'))).toEqual(expected)
  })

  it('asks for the log model, printing it, when the schema has none', async () => {
    const { problems } = await generate(NOTE('@changes'))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(
      'error: Model "Note", @changes: the schema has no model mapped to "hydra_changes"'
    )
    expect(problems[0]).toContain('@@map("hydra_changes")')
  })

  it('asks for an Int id on SQLite, and for the clock on MySQL', async () => {
    const sqlite = await generate(NOTE('@changes') + LOG('BigInt'))
    expect(sqlite.problems).toEqual([
      expect.stringContaining(
        'error: Model "Note", @changes: model "HydraChange" (hydra_changes) needs the fields id Int @default(autoincrement()):'
      ),
    ])
    const mysql = await generate(NOTE('@changes') + LOG('BigInt'), 'mysql')
    expect(mysql.problems).toEqual([
      expect.stringContaining('the schema has no model mapped to "hydra_changes_clock"'),
    ])
  })

  it('asks for the defaults the triggers leave the id and the time to', async () => {
    const noIncrement = LOG('BigInt').replace(' @default(autoincrement())', '')
    const postgresql = await generate(NOTE('@changes') + noIncrement, 'postgresql')
    expect(postgresql.problems).toEqual([
      expect.stringContaining(
        'model "HydraChange" (hydra_changes) needs the fields id BigInt @default(autoincrement()):'
      ),
    ])
    // MySQL/MariaDB: the triggers write the id, the clock's value.
    const mysql = await generate(NOTE('@changes') + noIncrement + CLOCK, 'mysql')
    expect(mysql.problems).toEqual([])
    const noNow = LOG('Int').replace(' @default(now())', '')
    expect((await generate(NOTE('@changes') + noNow)).problems).toEqual([
      expect.stringContaining('needs the fields at DateTime @default(now()):'),
    ])
  })

  it('asks for a time without a time zone, which the triggers write in UTC', async () => {
    const zoned = (native: string) =>
      LOG('BigInt').replace('DateTime @default(now())', `DateTime @default(now()) @db.${native}`)
    expect(
      (await generate(NOTE('@changes') + zoned('Timestamptz(3)'), 'postgresql')).problems
    ).toEqual([
      expect.stringContaining('needs the fields at DateTime (no @db type, or @db.Timestamp):'),
    ])
    expect(
      (await generate(NOTE('@changes') + zoned('Timestamp(3)'), 'postgresql')).problems
    ).toEqual([])
    expect(
      (await generate(NOTE('@changes') + zoned('Timestamp(3)') + CLOCK, 'mysql')).problems
    ).toEqual([
      expect.stringContaining('needs the fields at DateTime (no @db type, or @db.DateTime):'),
    ])
    expect(
      (await generate(NOTE('@changes') + zoned('DateTime(3)') + CLOCK, 'mysql')).problems
    ).toEqual([])
  })

  it('refuses @changes on a view and on the log itself', async () => {
    const view = `
generator client {
  provider        = "prisma-client"
  previewFeatures = ["views"]
}
/// @pagination
/// @changes
view Summary {
  id    Int @unique
  total Int
}`
    const onView = await generate(NOTE('') + view + LOG('Int'))
    expect(onView.problems).toEqual([
      'error: Model "Summary", @changes: is a view, whose rows no trigger sees change: remove @changes from it',
    ])
    const onLog = await generate(`/// @pagination\n/// @changes${LOG('Int')}`)
    expect(onLog.problems).toEqual([
      'error: Model "HydraChange", @changes: is the change log\'s own table: remove @changes from it',
    ])
  })

  const RELATED = (relation: string) => `
/// @pagination
model Owner {
  id    Int    @id
  notes Note[]
}
/// @pagination
/// @changes
model Note {
  id      Int   @id
  ownerId Int?
  owner   Owner? @relation(fields: [ownerId], references: [id]${relation})
}`

  it('refuses on MySQL a model that a foreign key action changes, defaults included', async () => {
    const defaults = await generate(RELATED('') + LOG('BigInt') + CLOCK, 'mysql')
    expect(defaults.problems).toEqual([
      'error: Model "Note", @changes: the relation "owner" changes this model\'s rows by its foreign key (onDelete: SetNull, onUpdate: Cascade), which MySQL and MariaDB make without running triggers: the log would miss those changes (refused under relationMode = "prisma" too, whose emulation of the actions is untested with the log). Write @relation(..., onDelete: Restrict, onUpdate: Restrict) (or NoAction) on "owner"',
    ])
    const setDefault = await generate(
      RELATED(', onDelete: NoAction, onUpdate: SetDefault') + LOG('BigInt') + CLOCK,
      'mysql'
    )
    expect(setDefault.problems).toEqual([expect.stringContaining('(onUpdate: SetDefault)')])
    const restricted = RELATED(', onDelete: Restrict, onUpdate: NoAction')
    expect((await generate(restricted + LOG('BigInt') + CLOCK, 'mysql')).problems).toEqual([])
    // PostgreSQL and SQLite run triggers for the rows a foreign key's action changes.
    expect((await generate(RELATED('') + LOG('BigInt'), 'postgresql')).problems).toEqual([])
    expect((await generate(RELATED('') + LOG('Int'))).problems).toEqual([])
  })

  it('names database objects in at most 60 bytes, non-ASCII names included', async () => {
    const table = 'ü'.repeat(40)
    const mapped = (name: string) =>
      NOTE('@changes').replace('owner String\n}', `owner String\n  @@map("${name}")\n}`)
    const sqlite = (await generate(mapped(table) + LOG('Int'))).files.get('changes.sql') ?? ''
    const names = [...sqlite.matchAll(/CREATE TRIGGER "([^"]+)"/g)].map((match) => match[1] ?? '')
    expect(names).toHaveLength(3)
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(60)
    expect(new Set(names).size).toBe(3)
    const postgresql = await generate(mapped(table) + LOG('BigInt'), 'postgresql')
    const [, fn = ''] = /CREATE OR REPLACE FUNCTION "([^"]+)"/.exec(
      postgresql.files.get('changes.sql') ?? ''
    ) ?? ['', '']
    expect(Buffer.byteLength(fn)).toBeLessThanOrEqual(60)
    expect(fn.startsWith('hydra_changes_ü')).toBe(true)
  })

  it('quotes the PostgreSQL function body with a tag no name in it holds', async () => {
    const models = NOTE('@changes').replace('owner String', 'owner String @map("a$hydra$b")')
    const sql = (await generate(models + LOG('BigInt'), 'postgresql')).files.get('changes.sql')
    expect(sql).toContain('SET search_path FROM CURRENT AS $hydra1$\n')
    expect(sql).toContain('\n$hydra1$;')
  })
})

describe('@changes: the feed path', () => {
  it('refuses an operation at the feed path, of its model or of another', async () => {
    const own = NOTE('@changes\n@operation(name: "recent", path: "/notes/changes")') + LOG('Int')
    expect((await generate(own)).problems).toEqual([
      'error: Model "Note", @operation(name: "recent"), option "path": "/notes/changes" is the change feed of Note (@changes): choose another path',
    ])
    const other = `${NOTE('@changes')}
/// @pagination
/// @resource(path: "/notes/changes")
model Memo {
  id Int @id
}${LOG('Int')}`
    expect((await generate(other)).problems).toEqual([
      'error: Model "Memo", @resource, option "path": "/notes/changes" is the change feed of Note (@changes): choose another path',
    ])
    // Without @changes, the path is the operation's.
    const unlogged = NOTE('@operation(name: "recent", path: "/notes/changes")') + LOG('Int')
    expect((await generate(unlogged)).problems).toEqual([])
  })

  it('refuses an enum key with the value changes, which would name an item at the feed path', async () => {
    const keyed = (values: string) => `
/// @pagination
/// @changes
model Plan {
  kind Kind @id
}
enum Kind {
  ${values}
}${LOG('Int')}`
    expect((await generate(keyed('free\n  changes'))).problems).toEqual([
      'error: Model "Plan", @changes: the key field kind takes the value "changes" (enum Kind), whose item would be /plans/changes, the change feed\'s path: rename the value (@map keeps its stored name) or remove @changes',
    ])
    // Stored as `changes`, named otherwise: the item is /plans/CHANGES.
    expect((await generate(keyed('free\n  CHANGES @map("changes")'))).problems).toEqual([])
  })
})
