// API Extractor over one entry point's built `.d.ts`: the report of its public API, every
// exported name with its type, and the declarations those types name without the entry
// exporting them (their shape is part of the API too).

import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'
import { root } from '../release/release-packages.mjs'

/** Where a check writes the report it computed, to compare or copy (git-ignored). */
export const tempFolder = path.join(root, 'node_modules/.cache/api-report')

/**
 * Messages that do not concern this project, off, each with its reason; every other message is
 * an error, so the reports only change with the declarations.
 */
const MESSAGES = {
  compilerMessageReporting: { default: { logLevel: 'error' } },
  extractorMessageReporting: {
    default: { logLevel: 'error', addToApiReportFile: false },
    // The packages do not use release tags (@public, @beta): everything an entry point
    // exports is public, and docs/versioning.md says what that promises.
    'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
    // A type the exports name without exporting it (an option object's type): its declaration
    // is in the report all the same (`includeForgottenExports`), so its changes are seen; the
    // reference documents it under "Not exported" (CONTRIBUTING.md, "The API reference").
    'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
    // Doc comments and their links are TypeDoc's to check (`npm run docs:reference`), which
    // resolves links API Extractor's own syntax does not.
    'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
    // Which names need a doc comment is TypeDoc's to say too (its `notDocumented` validation,
    // which knows the comments a member takes from the property it satisfies).
    'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
  },
  // The comments are TypeDoc's TSDoc (@module, @hidden, @category): TSDoc's stricter parser
  // would only report tags it does not define; TypeDoc validates them.
  tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
}

/** API Extractor's console messages that run.mjs says in its own words, or that are noise. */
const QUIET = new Set([
  'console-preamble',
  'console-api-report-not-copied',
  'console-api-report-diff',
  'console-api-report-copied',
  'console-api-report-unchanged',
  'console-api-report-created',
])

/** The configuration of one entry point's run, as API Extractor's config file would hold it. */
function configOf(entry) {
  const projectFolder = path.join(root, entry.dir)
  return {
    projectFolder,
    mainEntryPointFilePath: entry.dts,
    bundledPackages: [],
    // Only the `.d.ts` are read: the packages' own compiler options, how they resolve imports
    // (`.js` specifiers, package `exports`).
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        files: [entry.dts],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.name,
      reportFolder: path.join(projectFolder, 'api'),
      reportTempFolder: path.join(tempFolder, entry.dir),
      includeForgottenExports: true,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: MESSAGES,
  }
}

/**
 * Runs API Extractor on an entry point. `update` writes its report into the package's `api/`;
 * otherwise the report is written into `tempFolder` and compared. Returns whether it ran without
 * error and whether the report differs from the committed one.
 */
export function extract(entry, { update }) {
  mkdirSync(path.join(tempFolder, entry.dir), { recursive: true })
  mkdirSync(path.join(root, entry.dir, 'api'), { recursive: true })
  const config = ExtractorConfig.prepare({
    configObject: configOf(entry),
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(root, entry.dir, 'package.json'),
  })
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback(message) {
      // Its progress notes and its advice (which names its config file) stay quiet: run.mjs
      // says what changed and which command updates the reports.
      if (QUIET.has(message.messageId)) message.handled = true
    },
  })
  return { ok: result.errorCount === 0, changed: result.apiReportChanged }
}
