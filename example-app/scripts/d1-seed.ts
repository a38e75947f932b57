// `npm run d1:seed`: writes the example's tables and rows as SQL, for its local D1 database
// (docs/runtime-workers.md): the schema is pushed to a fresh SQLite file and seeded there, as
// `npm start` does, then dumped (src/sqlite-dump.ts). The script's argument is the SQL file to
// write; `wrangler d1 execute DB --local --file <it>` then applies it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { sqliteDump } from '../src/sqlite-dump.js'

const target = process.argv[2]
if (!target) {
  process.stderr.write('usage: node scripts/start.mjs scripts/d1-seed.ts <file.sql>\n')
  process.exit(2)
}
const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-d1-'))
try {
  const file = path.join(folder, 'seed.db')
  const url = `file:${file}`
  const prisma = createPrismaClient(url)
  await prepareDatabase(prisma, url)
  await prisma.$disconnect()
  await writeFile(target, sqliteDump(file))
} finally {
  await rm(folder, { recursive: true, force: true })
}
