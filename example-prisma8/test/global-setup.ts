// Emits the example's contract once for every test file (they read prisma/contract.json).
import { emitExample } from './prisma8-emit.js'

export default function setup(): void {
  emitExample()
}
