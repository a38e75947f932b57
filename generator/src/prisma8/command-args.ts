/**
 * The command line of `prisma-hydra generate`, the generator's step for a Prisma 8 project (Prisma
 * 8 runs no generators): the contract `prisma contract emit` wrote, the schema it was emitted from,
 * the output folder and the generator block's settings as options.
 */
import { parseArgs } from 'node:util'

export interface ContractCommand {
  /** contract.json, as given. */
  contract: string
  /** The `.prisma` file the contract was emitted from, as given. */
  schema: string
  output: string
  /** The platform config file (`config` of a generator block), as given. */
  config: string | undefined
  /** `runtimeModule` of a generator block. */
  runtimeModule: string | undefined
  watch: boolean
}

export type ParsedContractCommand =
  | { kind: 'generate'; command: ContractCommand }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string }

export const GENERATE_USAGE = `Usage: prisma-hydra generate --contract <contract.json> --schema <schema.prisma> --output <folder>
                             [--config <platform.yaml>] [--runtime-module <specifier>] [--watch]

Generates the routes of a Prisma 8 project, which runs no generators: from the contract that
\`prisma contract emit\` wrote and the schema file it was emitted from (its /// annotations), the
routes \`prisma generate\` writes for the same schema on Prisma 7, typed for a Prisma 8 client:
\`createHydraApp({ prisma: db })\` takes the client \`postgres<Contract>(...)\` makes. PostgreSQL only.

  --contract        contract.json
  --schema          the .prisma file with \`// use prisma-8\` the contract was emitted from
  --output          the folder of the generated files (replaced as a whole, as prisma generate does)
  --config          the platform config file (the generator block's \`config\`)
  --runtime-module  the runtime package (the generator block's \`runtimeModule\`)
  --watch           generate again whenever one of these files changes
`

/** Reads the arguments after `prisma-hydra generate`. */
export function parseContractCommand(args: string[]): ParsedContractCommand {
  let values: ReturnType<typeof parse>['values']
  let positionals: string[]
  try {
    ;({ values, positionals } = parse(args))
  } catch (error) {
    return { kind: 'usage-error', message: (error as Error).message }
  }
  if (values.help) return { kind: 'help' }
  if (positionals.length > 0)
    return { kind: 'usage-error', message: `unexpected argument "${positionals[0]}"` }
  const { contract, schema, output } = values
  const missing = Object.entries({ contract, schema, output })
    .filter(([, value]) => !value)
    .map(([name]) => `--${name}`)
  if (!contract || !schema || !output)
    return { kind: 'usage-error', message: `${missing.join(', ')} must be given` }
  return {
    kind: 'generate',
    command: {
      contract,
      schema,
      output,
      config: values.config,
      runtimeModule: values['runtime-module'],
      watch: values.watch ?? false,
    },
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      contract: { type: 'string' },
      schema: { type: 'string' },
      output: { type: 'string' },
      config: { type: 'string' },
      'runtime-module': { type: 'string' },
      watch: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
