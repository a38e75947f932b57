/**
 * The admin page (example-app/admin), and the client page (example-app/client), each built once
 * for every database's test of it: the bundle does not depend on the database, and a Vite build is
 * the slowest part of the test's set-up. It is kept under node_modules/.cache, in a folder named
 * by a hash of the page's sources and the lock file, and built again only when that folder is
 * missing (a changed source or dependency names another folder). Two test files building at once
 * each build into a folder of their own and the first rename wins.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const ADMIN = fileURLToPath(new URL('../../admin/', import.meta.url))
const CLIENT = fileURLToPath(new URL('../../client/', import.meta.url))
/** The runtime's client entry, which the client page bundles (from its build, runtime/dist). */
const RUNTIME_CLIENT = fileURLToPath(new URL('../../../runtime/src/client/', import.meta.url))
/** The runtime's admin preset, which the admin page bundles (from its build, runtime/dist). */
const RUNTIME_ADMIN = fileURLToPath(new URL('../../../runtime/src/admin/', import.meta.url))
const LOCK_FILE = fileURLToPath(new URL('../../../package-lock.json', import.meta.url))
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url))

/**
 * A hash of the sources in `folders` (a page's own, not its build output or screenshot, and those
 * of the workspace code it bundles) and the lock file.
 */
async function sourceHash(folders: string[]): Promise<string> {
  const hash = createHash('sha256')
  const files: string[] = []
  for (const folder of folders) {
    const names = (await readdir(folder)).filter((name) => /\.(ts|html)$/.test(name)).sort()
    files.push(...names.map((name) => path.join(folder, name)))
  }
  for (const name of [...files, LOCK_FILE]) hash.update(name).update(await readFile(name))
  return hash.digest('hex').slice(0, 16)
}

/** The folder of the built admin page, building it when this version has not been built yet. */
export function adminBundle(): Promise<string> {
  return pageBundle([ADMIN, RUNTIME_ADMIN], 'prisma-hydra-admin')
}

/** The folder of the built client page, building it when this version has not been built yet. */
export function clientBundle(): Promise<string> {
  return pageBundle([CLIENT, RUNTIME_CLIENT], 'prisma-hydra-client')
}

/**
 * The folder of the page built from the first of `folders` (its vite.config.ts), cached under
 * `cacheName` by a hash of them all.
 */
async function pageBundle(folders: [string, ...string[]], cacheName: string): Promise<string> {
  const [page] = folders
  const cache = path.join(CACHE, cacheName)
  const folder = path.join(cache, await sourceHash(folders))
  if (existsSync(path.join(folder, 'index.html'))) return folder
  await mkdir(cache, { recursive: true })
  const building = `${folder}.${randomBytes(4).toString('hex')}`
  await build({
    configFile: path.join(page, 'vite.config.ts'),
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
