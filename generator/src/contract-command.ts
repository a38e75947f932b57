/**
 * `prisma-hydra generate`, as the package's bin runs it: the generation of a Prisma 8 project
 * from its contract and schema file (prisma8/), through the same core and writer as
 * `prisma generate` (generate.ts, write.ts). Resolves to the exit code: 0 written, 1 refused
 * (nothing written), 2 a wrong command line; in `--watch` mode it resolves once `signal` aborts
 * (never when none is given: the process runs until stopped).
 */
import { existsSync, watch } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { type Output, processOutput } from './command-output.js'
import { type BuildResult, buildHydra } from './generate.js'
import {
  type ContractCommand,
  GENERATE_USAGE,
  parseContractCommand,
} from './prisma8/command-args.js'
import { readContract } from './prisma8/contract.js'
import { prisma8Datamodel } from './prisma8/datamodel.js'
import { withLine } from './prisma8/problem-lines.js'
import { readSource } from './prisma8/psl-source.js'
import { loadPslSyntax } from './prisma8/psl-syntax.js'
import { formatProblem, GenerationError } from './problems.js'
import { writeFiles } from './write.js'

/** Runs `prisma-hydra generate <args>` in the folder `cwd`. */
export async function runContractCommand(
  args: string[],
  cwd: string,
  output = processOutput,
  signal?: AbortSignal
): Promise<number> {
  const parsed = parseContractCommand(args)
  if (parsed.kind === 'help') {
    output.out(GENERATE_USAGE)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    output.err(`prisma-hydra generate: ${parsed.message}\n`)
    output.err(GENERATE_USAGE)
    return 2
  }
  const { command } = parsed
  const code = await generateOnce(command, cwd, output)
  if (!command.watch) return code
  return watchFiles(command, cwd, output, signal)
}

/** Reads, builds and writes once; reports and resolves to the exit code. */
async function generateOnce(command: ContractCommand, cwd: string, output: Output) {
  const outputDir = path.resolve(cwd, command.output)
  try {
    const result = await buildFromContract(command, cwd)
    for (const warning of result.warnings) output.out(`prisma-hydra ${formatProblem(warning)}`)
    await writeFiles(outputDir, result.files)
    output.out(
      `prisma-hydra wrote ${result.files.size} files to ${path.relative(cwd, outputDir) || '.'}`
    )
    return 0
  } catch (error) {
    output.err((error as Error).message)
    const folder = path.relative(cwd, outputDir) || '.'
    output.err(
      `prisma-hydra wrote nothing: ${existsSync(outputDir) ? `${folder} keeps the routes of the last successful generation` : `${folder} was not created`}.`
    )
    return 1
  }
}

/** The files of `command`: the contract and schema read, the datamodel built, then buildHydra. */
async function buildFromContract(command: ContractCommand, cwd: string): Promise<BuildResult> {
  const contractPath = path.resolve(cwd, command.contract)
  const schemaPath = path.resolve(cwd, command.schema)
  const contractLabel = path.relative(cwd, contractPath)
  const schemaLabel = path.relative(cwd, schemaPath)
  const [contractText, schemaText, configText] = await Promise.all([
    read(contractPath, contractLabel, 'the contract'),
    read(schemaPath, schemaLabel, 'the schema'),
    command.config
      ? read(path.resolve(cwd, command.config), command.config, 'the platform config')
      : undefined,
  ])
  const contract = readContract(contractText, contractLabel)
  const syntax = await loadPslSyntax([path.dirname(contractPath), cwd])
  const source = readSource(syntax, schemaText, schemaLabel)
  const { datamodel, warnings } = prisma8Datamodel(contract, source, contractLabel)
  try {
    const result = buildHydra({
      datamodel,
      provider: 'postgresql',
      client: 'prisma8',
      schema: schemaText,
      ...(configText !== undefined && command.config
        ? { globalConfig: { text: configText, label: command.config } }
        : {}),
      ...(command.runtimeModule ? { runtimeModule: command.runtimeModule } : {}),
    })
    const located = [...warnings, ...result.warnings].map((problem) => withLine(problem, source))
    return { ...result, warnings: located }
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    throw new GenerationError(error.problems.map((problem) => withLine(problem, source)))
  }
}

async function read(file: string, label: string, what: string): Promise<string> {
  return readFile(file, 'utf8').catch((error: Error) => {
    throw new Error(`prisma-hydra cannot read ${what} "${label}" (${file}): ${error.message}`)
  })
}

/** Generates again after each change of the contract, the schema or the config, until `signal`. */
function watchFiles(
  command: ContractCommand,
  cwd: string,
  output: Output,
  signal: AbortSignal | undefined
): Promise<number> {
  const files = [command.contract, command.schema, command.config]
    .filter((file): file is string => file !== undefined)
    .map((file) => path.resolve(cwd, file))
  // The folders, not the files: `prisma contract emit` may replace contract.json, which ends a
  // watch on the file itself.
  const folders = new Map<string, Set<string>>()
  for (const file of files) {
    const names = folders.get(path.dirname(file)) ?? new Set()
    folders.set(path.dirname(file), names.add(path.basename(file)))
  }
  let timer: NodeJS.Timeout | undefined
  let running = Promise.resolve()
  const watchers = [...folders].map(([folder, names]) =>
    watch(folder, (_event, name) => {
      if (name === null || !names.has(name)) return
      // One run for the burst of events a write makes (and contract.json with contract.d.ts).
      clearTimeout(timer)
      timer = setTimeout(() => {
        running = running.then(async () => {
          await generateOnce(command, cwd, output)
        })
      }, 200)
    })
  )
  output.out(`prisma-hydra is watching ${files.map((file) => path.relative(cwd, file)).join(', ')}`)
  return new Promise((resolve) => {
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      for (const watcher of watchers) watcher.close()
      void running.then(() => resolve(0))
    })
  })
}
