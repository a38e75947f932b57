/**
 * The packages a project initialized by `prisma-hydra init` still lacks, as the `npm install`
 * commands that add them. init installs nothing itself, as neither `prisma init` nor
 * `npm create hono` does: it says what to run.
 */

import { adapterPackage, type Provider } from './client-module.js'
import type { Project } from './project.js'
import { type Runtime, runtimePackages } from './runtimes.js'

const GENERATOR = '@prisma-hydra/generator'
const RUNTIME = '@prisma-hydra/runtime'
/** A generator installed from its release tarball, whose runtime's tarball lies beside it. */
const GENERATOR_TARBALL = /^file:(.*?)prisma-hydra-generator-([^/]+)\.tgz$/

/** The `npm install` commands adding what the project lacks for `runtime` on `provider`. */
export function installCommands(project: Project, runtime: Runtime, provider: Provider): string[] {
  const declared = declaredPackages(project)
  const { dependencies, dev } = runtimePackages(runtime)
  dependencies.splice(2, 0, adapterPackage(provider, runtime))
  const missing = (specs: string[]) =>
    specs.filter((spec) => !declared.has(spec.replace(/(.)@.*$/, '$1')))
  const runtimeSpec = runtimeTarball(declared.get(GENERATOR)) ?? RUNTIME
  const install = missing(dependencies).map((name) => (name === RUNTIME ? runtimeSpec : name))
  const exact = missing(dev).filter((spec) => /.@/.test(spec))
  const devInstall = missing(dev).filter((spec) => !exact.includes(spec))
  return [
    ...(install.length > 0 ? [`npm install ${install.join(' ')}`] : []),
    ...(devInstall.length > 0 ? [`npm install --save-dev ${devInstall.join(' ')}`] : []),
    ...(exact.length > 0 ? [`npm install --save-dev --save-exact ${exact.join(' ')}`] : []),
  ]
}

/** Every package the project's package.json names, with the version it asks for. */
function declaredPackages(project: Project): Map<string, string> {
  const declared = new Map<string, string>()
  const data = project.packageJson?.data ?? {}
  for (const field of ['dependencies', 'devDependencies']) {
    const packages = data[field]
    if (typeof packages !== 'object' || packages === null) continue
    for (const [name, version] of Object.entries(packages)) declared.set(name, String(version))
  }
  return declared
}

/** The runtime's tarball beside the generator's (`../release/prisma-hydra-runtime-0.1.0.tgz`). */
function runtimeTarball(generatorSpec: string | undefined): string | undefined {
  const match = generatorSpec ? GENERATOR_TARBALL.exec(generatorSpec) : null
  return match ? `${match[1]}prisma-hydra-runtime-${match[2]}.tgz` : undefined
}
