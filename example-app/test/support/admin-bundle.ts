/**
 * The admin page (example-app/admin) built once for every database's admin test: the bundle does
 * not depend on the database, and a Vite build is the slowest part of the test's set-up. It is
 * kept under node_modules/.cache, in a folder named by a hash of the admin's sources and the lock
 * file, and built again only when that folder is missing (a changed source or dependency names
 * another folder). Two test files building at once each build into a folder of their own and the
 * first rename wins.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const ADMIN = fileURLToPath(new URL('../../admin/', import.meta.url))
const LOCK_FILE = fileURLToPath(new URL('../../../package-lock.json', import.meta.url))
const CACHE = fileURLToPath(
  new URL('../../node_modules/.cache/prisma-hydra-admin/', import.meta.url)
)

/** A hash of the admin's own sources (not its build output or screenshot) and the lock file. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256')
  const names = (await readdir(ADMIN)).filter((name) => /\.(ts|html)$/.test(name)).sort()
  for (const name of [...names.map((name) => path.join(ADMIN, name)), LOCK_FILE]) {
    hash.update(name).update(await readFile(name))
  }
  return hash.digest('hex').slice(0, 16)
}

/** The folder of the built admin page, building it when this version has not been built yet. */
export async function adminBundle(): Promise<string> {
  const folder = path.join(CACHE, await sourceHash())
  if (existsSync(path.join(folder, 'index.html'))) return folder
  await mkdir(CACHE, { recursive: true })
  const building = `${folder}.${randomBytes(4).toString('hex')}`
  await build({
    configFile: path.join(ADMIN, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: building, emptyOutDir: true },
  })
  try {
    await rename(building, folder)
  } catch (error) {
    // Another file built the same version first: keep its folder.
    await rm(building, { recursive: true, force: true })
    if (!existsSync(path.join(folder, 'index.html'))) throw error
  }
  return folder
}
