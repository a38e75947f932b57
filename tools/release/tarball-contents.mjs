// What a release tarball must hold, read from `npm pack --json`'s list of its files: what a user
// is promised (the readme, the licence, the changelog), every file package.json points at, a
// declaration beside every module, the source of every module where the sources are packed (the
// source maps point at them), and nothing of the repository's own (tests, tsconfig files).

/** The files every tarball carries besides those of package.json `files`. */
const REQUIRED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']

/** Files a tarball must not carry: tests and their helpers, build settings. */
const FORBIDDEN = [/\.test\.ts$/, /(^|\/)test\//, /(^|\/)tsconfig[^/]*\.json$/, /\.tsbuildinfo$/]

/** Every file path an `exports` value names, through its conditions. */
function exportTargets(value) {
  if (typeof value === 'string') return [value]
  if (value === null || typeof value !== 'object') return []
  return Object.values(value).flatMap(exportTargets)
}

/** The files package.json points at: `main`, `types`, `bin` and every `exports` target. */
function pointedFiles(manifest) {
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})
  return [manifest.main, manifest.types, ...bins, ...exportTargets(manifest.exports)]
    .filter((file) => typeof file === 'string')
    .map((file) => file.replace(/^\.\//, ''))
}

/** The problems of one tarball: `manifest` its package.json, `files` the paths it holds. */
export function tarballProblems(manifest, files) {
  const held = new Set(files)
  const problems = []
  for (const file of REQUIRED) if (!held.has(file)) problems.push(`${file} is missing`)
  for (const file of pointedFiles(manifest)) {
    if (!held.has(file)) problems.push(`${file}, named in package.json, is missing`)
  }
  const sources = files.some((file) => file.startsWith('src/'))
  for (const file of files) {
    if (FORBIDDEN.some((pattern) => pattern.test(file))) problems.push(`${file} is packed`)
    if (file.startsWith('dist/') && file.endsWith('.js')) {
      const declaration = file.replace(/\.js$/, '.d.ts')
      if (!held.has(declaration)) problems.push(`${file} has no ${declaration}`)
      // dist/cjs/ is built from the same sources as dist/.
      const source = file.replace(/^dist\/(cjs\/)?/, 'src/').replace(/\.js$/, '.ts')
      if (sources && !held.has(source)) problems.push(`${file} has no source ${source}`)
    }
  }
  return problems
}

/**
 * The problems between the packages, which are released together (`fixed` in
 * .changeset/config.json): one version for both, and the generator's range on the runtime is
 * the caret of that version, so that npm gives it the runtime of the same release.
 */
export function releaseProblems(runtime, generator) {
  const problems = []
  if (runtime.version !== generator.version) {
    problems.push(`runtime ${runtime.version} and generator ${generator.version} differ`)
  }
  const range = generator.dependencies?.[runtime.name]
  if (range !== `^${runtime.version}`) {
    problems.push(`the generator depends on ${runtime.name} ${range}, not ^${runtime.version}`)
  }
  return problems
}
