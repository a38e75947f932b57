/** Where a command of the `prisma-hydra` bin writes its lines: the process's, or a test's. */

/** Where the command's lines go. */
export interface Output {
  out: (line: string) => void
  err: (line: string) => void
}

/** The process's standard output and error. */
export const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}
