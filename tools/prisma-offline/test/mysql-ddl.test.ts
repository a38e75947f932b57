// The MySQL DDL derived from Prisma schemas (src/mysql-ddl.mjs), compared with what Prisma Migrate
// writes for the same schemas: its migration.sql layout, types, defaults, key and index names and
// referential actions follow Prisma's MySQL renderer (prisma-engines, sql_schema_calculator.rs and
// flavour/mysql/renderer.rs; psl's ConstraintNames).
import { describe, expect, it } from 'vitest'
import {
  constraintName,
  mysqlDatamodel,
  mysqlDdl,
  quoteString,
  renderMigration,
} from '../src/mysql-ddl.mjs'

const DATASOURCE = 'datasource db {\n  provider = "mysql"\n}\n'

/** The migration script for a schema body (models and enums) under a MySQL datasource. */
function migration(models: string): string {
  return renderMigration(ddl(models))
}

function ddl(models: string) {
  return mysqlDdl(mysqlDatamodel([{ path: 'schema.prisma', content: `${DATASOURCE}${models}` }]))
}

/** The lines of the CREATE TABLE of `table`. */
function tableLines(models: string, table: string): string[] {
  const found = ddl(models).tables.find((t) => t.name === table)
  if (!found) throw new Error(`no table ${table}`)
  return found.sql.split('\n').map((line) => line.trim().replace(/,$/, ''))
}

describe('mysqlDdl: what Prisma Migrate writes', () => {
  it("the schema of Prisma's MySQL quickstart", () => {
    const schema = `
model Post {
  id        Int      @id @default(autoincrement())
  createdAt DateTime @default(now())
  updatedAt DateTime @updatedAt
  title     String   @db.VarChar(255)
  content   String?
  published Boolean  @default(false)
  author    User     @relation(fields: [authorId], references: [id])
  authorId  Int
}

model Profile {
  id     Int     @id @default(autoincrement())
  bio    String?
  user   User    @relation(fields: [userId], references: [id])
  userId Int     @unique
}

model User {
  id      Int      @id @default(autoincrement())
  email   String   @unique
  name    String?
  posts   Post[]
  profile Profile?
}
`
    expect(migration(schema)).toBe(`-- CreateTable
CREATE TABLE \`Post\` (
    \`id\` INTEGER NOT NULL AUTO_INCREMENT,
    \`createdAt\` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    \`updatedAt\` DATETIME(3) NOT NULL,
    \`title\` VARCHAR(255) NOT NULL,
    \`content\` VARCHAR(191) NULL,
    \`published\` BOOLEAN NOT NULL DEFAULT false,
    \`authorId\` INTEGER NOT NULL,

    PRIMARY KEY (\`id\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE \`Profile\` (
    \`id\` INTEGER NOT NULL AUTO_INCREMENT,
    \`bio\` VARCHAR(191) NULL,
    \`userId\` INTEGER NOT NULL,

    UNIQUE INDEX \`Profile_userId_key\`(\`userId\`),
    PRIMARY KEY (\`id\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- CreateTable
CREATE TABLE \`User\` (
    \`id\` INTEGER NOT NULL AUTO_INCREMENT,
    \`email\` VARCHAR(191) NOT NULL,
    \`name\` VARCHAR(191) NULL,

    UNIQUE INDEX \`User_email_key\`(\`email\`),
    PRIMARY KEY (\`id\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- AddForeignKey
ALTER TABLE \`Post\` ADD CONSTRAINT \`Post_authorId_fkey\` FOREIGN KEY (\`authorId\`) REFERENCES \`User\`(\`id\`) ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE \`Profile\` ADD CONSTRAINT \`Profile_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`User\`(\`id\`) ON DELETE RESTRICT ON UPDATE CASCADE;
`)
  })

  it('implicit many-to-many relations: join tables _<relation>, A and B, cascading keys', () => {
    const schema = `
model User {
  id       Int    @id @default(autoincrement())
  email    String @unique
  likes    Tag[]  @relation("likes")
  dislikes Tag[]  @relation("dislikes")
}

model Tag {
  id         Int    @id @default(autoincrement())
  likedBy    User[] @relation("likes")
  dislikedBy User[] @relation("dislikes")
}
`
    expect(migration(schema)).toContain(`-- CreateTable
CREATE TABLE \`_likes\` (
    \`A\` INTEGER NOT NULL,
    \`B\` INTEGER NOT NULL,

    UNIQUE INDEX \`_likes_AB_unique\`(\`A\`, \`B\`),
    INDEX \`_likes_B_index\`(\`B\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
`)
    // A is the model whose name sorts first (Tag), B the other.
    expect(ddl(schema).foreignKeys.map((fk) => fk.sql)).toEqual([
      'ALTER TABLE `_likes` ADD CONSTRAINT `_likes_A_fkey` FOREIGN KEY (`A`) REFERENCES `Tag`(`id`) ON DELETE CASCADE ON UPDATE CASCADE',
      'ALTER TABLE `_likes` ADD CONSTRAINT `_likes_B_fkey` FOREIGN KEY (`B`) REFERENCES `User`(`id`) ON DELETE CASCADE ON UPDATE CASCADE',
      'ALTER TABLE `_dislikes` ADD CONSTRAINT `_dislikes_A_fkey` FOREIGN KEY (`A`) REFERENCES `Tag`(`id`) ON DELETE CASCADE ON UPDATE CASCADE',
      'ALTER TABLE `_dislikes` ADD CONSTRAINT `_dislikes_B_fkey` FOREIGN KEY (`B`) REFERENCES `User`(`id`) ON DELETE CASCADE ON UPDATE CASCADE',
    ])
  })

  it('a default-named implicit relation between String ids, and a self-relation', () => {
    const schema = `
model Post {
  id   String @id @default(cuid())
  tags Tag[]
}

model Tag {
  id        String @id
  posts     Post[]
  related   Tag[]  @relation("related")
  relatedTo Tag[]  @relation("related")
}
`
    const tables = ddl(schema).tables.map((t) => t.name)
    expect(tables).toEqual(['Post', 'Tag', '_PostToTag', '_related'])
    expect(tableLines(schema, '_PostToTag')).toContain('`A` VARCHAR(191) NOT NULL')
    expect(ddl(schema).foreignKeys.map((fk) => fk.name)).toEqual([
      '_PostToTag_A_fkey',
      '_PostToTag_B_fkey',
      '_related_A_fkey',
      '_related_B_fkey',
    ])
  })
})

describe('mysqlDdl: types', () => {
  const schema = `
enum Mood {
  HAPPY
  SAD    @map("sad")
}

model Every {
  id        Int       @id
  big       BigInt
  float     Float
  decimal   Decimal
  string    String
  boolean   Boolean
  dateTime  DateTime
  json      Json
  bytes     Bytes
  mood      Mood
  optional  String?
  maybeMood Mood?
}

model Native {
  id        Int      @id @db.UnsignedInt
  tiny      Int      @db.TinyInt
  small     Int      @db.SmallInt
  medium    Int      @db.MediumInt
  ubig      BigInt   @db.UnsignedBigInt
  float     Float    @db.Float
  money     Decimal  @db.Decimal(10, 2)
  char      String   @db.Char(2)
  varchar   String   @db.VarChar(20)
  text      String   @db.Text
  longText  String   @db.LongText
  flag      Boolean  @db.Bit(1)
  date      DateTime @db.Date
  time      DateTime @db.Time(3)
  stamp     DateTime @db.Timestamp(6)
  plainDate DateTime @db.DateTime
  year      Int      @db.Year
  blob      Bytes    @db.Blob
  binary    Bytes    @db.Binary(16)
}
`
  it("maps every scalar type to Prisma's default MySQL type", () => {
    expect(tableLines(schema, 'Every').slice(1, 13)).toEqual([
      '`id` INTEGER NOT NULL',
      '`big` BIGINT NOT NULL',
      '`float` DOUBLE NOT NULL',
      '`decimal` DECIMAL(65, 30) NOT NULL',
      '`string` VARCHAR(191) NOT NULL',
      '`boolean` BOOLEAN NOT NULL',
      '`dateTime` DATETIME(3) NOT NULL',
      '`json` JSON NOT NULL',
      '`bytes` LONGBLOB NOT NULL',
      "`mood` ENUM('HAPPY', 'sad') NOT NULL",
      '`optional` VARCHAR(191) NULL',
      "`maybeMood` ENUM('HAPPY', 'sad') NULL",
    ])
  })

  it('writes @db native types as Prisma does', () => {
    expect(tableLines(schema, 'Native').slice(1, 20)).toEqual([
      '`id` INTEGER UNSIGNED NOT NULL',
      '`tiny` TINYINT NOT NULL',
      '`small` SMALLINT NOT NULL',
      '`medium` MEDIUMINT NOT NULL',
      '`ubig` BIGINT UNSIGNED NOT NULL',
      '`float` FLOAT NOT NULL',
      '`money` DECIMAL(10, 2) NOT NULL',
      '`char` CHAR(2) NOT NULL',
      '`varchar` VARCHAR(20) NOT NULL',
      '`text` TEXT NOT NULL',
      '`longText` LONGTEXT NOT NULL',
      '`flag` BIT(1) NOT NULL',
      '`date` DATE NOT NULL',
      '`time` TIME(3) NOT NULL',
      '`stamp` TIMESTAMP(6) NOT NULL',
      '`plainDate` DATETIME NOT NULL',
      '`year` YEAR NOT NULL',
      '`blob` BLOB NOT NULL',
      '`binary` BINARY(16) NOT NULL',
    ])
  })
})

describe('mysqlDdl: defaults', () => {
  it('writes database defaults and leaves the client-side ones out', () => {
    const schema = `
enum Level {
  LOW  @map("low")
  HIGH
}

model D {
  id       Int      @id @default(autoincrement())
  uuid     String   @default(uuid())
  cuid     String   @default(cuid())
  text     String   @default("it's \\\\ here")
  count    Int      @default(7)
  ratio    Float    @default(1.5)
  on       Boolean  @default(true)
  level    Level    @default(LOW)
  created  DateTime @default(now())
  stamp    DateTime @default(now()) @db.Timestamp(6)
  fixed    DateTime @default("2024-02-03T04:05:06.789Z")
  updated  DateTime @updatedAt
  json     Json     @default("{}")
  computed Int      @default(dbgenerated("(1 + 2)"))
}
`
    expect(tableLines(schema, 'D').slice(1, 15)).toEqual([
      '`id` INTEGER NOT NULL AUTO_INCREMENT',
      '`uuid` VARCHAR(191) NOT NULL',
      '`cuid` VARCHAR(191) NOT NULL',
      "`text` VARCHAR(191) NOT NULL DEFAULT 'it''s \\\\ here'",
      '`count` INTEGER NOT NULL DEFAULT 7',
      '`ratio` DOUBLE NOT NULL DEFAULT 1.5',
      '`on` BOOLEAN NOT NULL DEFAULT true',
      "`level` ENUM('low', 'HIGH') NOT NULL DEFAULT 'low'",
      '`created` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)',
      '`stamp` TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)',
      "`fixed` DATETIME(3) NOT NULL DEFAULT '2024-02-03 04:05:06.789'",
      '`updated` DATETIME(3) NOT NULL',
      '`json` JSON NOT NULL',
      '`computed` INTEGER NOT NULL DEFAULT (1 + 2)',
    ])
  })

  it('quotes strings for MySQL: quotes doubled, backslashes escaped', () => {
    expect(quoteString("a'b\\c")).toBe("'a''b\\\\c'")
  })
})

describe('mysqlDdl: keys, indexes and names', () => {
  const schema = `
model Account {
  tenant  Int
  number  Int    @map("account_number")
  email   String @unique(map: "account_email")
  handle  String
  title   String @db.VarChar(500)
  notes   String @db.Text
  entries Entry[]

  @@id([tenant, number])
  @@unique([tenant, handle])
  @@index([title(length: 100), handle(sort: Desc)])
  @@index([handle], map: "by_handle")
  @@fulltext([notes])
  @@map("accounts")
}

model Entry {
  id      Int      @id @default(autoincrement())
  tenant  Int
  number  Int?
  account Account? @relation(fields: [tenant, number], references: [tenant, number], onDelete: Cascade, onUpdate: NoAction)

  @@map("ledger_entries")
}
`
  it('names unique and plain indexes <table>_<columns>_key/_idx with the column names', () => {
    // Prisma's order: field-level @unique, then every @@index, @@unique, @@fulltext.
    expect(tableLines(schema, 'accounts').slice(8)).toEqual([
      'UNIQUE INDEX `account_email`(`email`)',
      'INDEX `accounts_title_handle_idx`(`title`(100), `handle` DESC)',
      'INDEX `by_handle`(`handle`)',
      'UNIQUE INDEX `accounts_tenant_handle_key`(`tenant`, `handle`)',
      'FULLTEXT INDEX `accounts_notes_idx`(`notes`)',
      'PRIMARY KEY (`tenant`, `account_number`)',
      ') DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci',
    ])
  })

  it('keys foreign keys by table and column names, with the explicit referential actions', () => {
    expect(ddl(schema).foreignKeys.map((fk) => fk.sql)).toEqual([
      'ALTER TABLE `ledger_entries` ADD CONSTRAINT `ledger_entries_tenant_number_fkey` FOREIGN KEY (`tenant`, `number`) REFERENCES `accounts`(`tenant`, `account_number`) ON DELETE CASCADE ON UPDATE NO ACTION',
    ])
  })

  it('sets null on delete when every referencing field is optional, restricts otherwise', () => {
    const optional = `
model Parent {
  id       Int     @id
  children Child[]
  wards    Ward[]
}

model Child {
  id       Int     @id
  parentId Int?
  parent   Parent? @relation(fields: [parentId], references: [id])
}

model Ward {
  id       Int     @id
  parentId Int
  parent   Parent  @relation(fields: [parentId], references: [id])
}
`
    expect(
      ddl(optional).foreignKeys.map((fk) => fk.sql.replace(/.* ON DELETE/, 'ON DELETE'))
    ).toEqual(['ON DELETE SET NULL ON UPDATE CASCADE', 'ON DELETE RESTRICT ON UPDATE CASCADE'])
  })

  it('cuts long default names to 64 bytes as psl does', () => {
    const table = 'a_rather_long_table_name_for_ledger_entries'
    const name = constraintName(table, ['first_column', 'second_column'], '_key')
    expect(name).toBe('a_rather_long_table_name_for_ledger_entries_first_column_sec_key')
    expect(Buffer.byteLength(name)).toBe(64)
    expect(constraintName('short', ['a'], '_idx')).toBe('short_a_idx')
    // Never inside a character.
    expect(constraintName('é'.repeat(40), ['x'], '_fkey')).toBe(`${'é'.repeat(29)}_fkey`)
  })
})

describe('mysqlDatamodel', () => {
  it('refuses a schema whose provider is not mysql, naming the provider', () => {
    expect(() =>
      mysqlDatamodel([
        { path: 'schema.prisma', content: 'datasource db {\n  provider = "sqlite"\n}\n' },
      ])
    ).toThrow('provider is "sqlite"')
  })

  it("gives Prisma's validation message for an invalid schema, without terminal colours", () => {
    const invalid = `${DATASOURCE}model A {\n  id Int @id\n  b Strin\n}\n`
    let message = ''
    try {
      mysqlDatamodel([{ path: 'schema.prisma', content: invalid }])
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('Strin')
    expect(message).not.toContain('\u001b[')
  })
})
