#!/usr/bin/env node
// Checks that database servers answer before a long run needs them:
//
//   prisma-offline-check-server <url>...   (or node tools/prisma-offline/src/check-server.mjs)
//
// Prints each server's version; exits with 1 and the reason at the first that does not answer.
import { checkServer } from './scratch-database.mjs'

const urls = process.argv.slice(2)
if (urls.length === 0) {
  console.error('Usage: prisma-offline-check-server <database URL>...')
  process.exit(2)
}
for (const url of urls) {
  try {
    console.log(`${new URL(url).host}: ${await checkServer(url)}`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
