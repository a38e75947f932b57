#!/usr/bin/env node
// Prisma runs this file as its generator, without arguments: dist/bin.js then answers Prisma's
// generator protocol on standard input and error. With arguments it is a command for people:
// `prisma-hydra init` (dist/init/command.js), `prisma-hydra generate` for a Prisma 8 project
// (dist/contract-command.js) and `prisma-hydra --help`.
if (process.argv[2] === 'generate') {
  const { runContractCommand } = await import('../dist/contract-command.js')
  process.exitCode = await runContractCommand(process.argv.slice(3), process.cwd())
} else if (process.argv.length > 2) {
  const { runCommand } = await import('../dist/init/command.js')
  process.exitCode = runCommand(process.argv.slice(2), process.cwd())
} else {
  await import('../dist/bin.js')
}
