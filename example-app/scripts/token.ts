// `npm run token -- <reader|librarian> [name]`: prints a bearer token for the example server,
// signed with JWT_SECRET (default: the development secret of src/auth.ts) and valid for a day.
//   npm run -s token -- reader 'Reader 3'   a reader, who sees the loans of "Reader 3"
//   npm run -s token -- librarian           a librarian, who sees every loan
import { DEFAULT_JWT_SECRET, tokenFor } from '../src/auth.js'

const [role, name] = process.argv.slice(2)
if (role !== 'reader' && role !== 'librarian') {
  process.stderr.write('usage: npm run token -- <reader|librarian> [name]\n')
  process.exit(2)
}
const sub = name ?? (role === 'reader' ? 'Reader 3' : 'Librarian')
const token = await tokenFor({ sub, role }, process.env.JWT_SECRET ?? DEFAULT_JWT_SECRET)
process.stdout.write(`${token}\n`)
