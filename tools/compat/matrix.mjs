// The compatibility matrix: the lowest and the latest versions the packages' ranges allow, read
// from their package.json and resolved on the npm registry at each run (a new release inside a
// range is tested the day it is published), and the rows that combine them.
//
// A full cross product (2 Prisma × 2 Hono × 2 TypeScript × 3 Node.js = 24 projects of about a
// minute and a half each) is too slow for CI. Three rows cover every value at least once: the
// lowest of everything together, the latest of everything together, and a row crossing them
// (the lowest Prisma with the latest Hono, whose types are checked by the oldest TypeScript), so
// that each Node.js major runs once. Node.js's lowest row takes the engines' floor, 20.19.0.

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { packageJson } from '../release/release-packages.mjs'
import { nodePackage } from './node-binaries.mjs'

/** The oldest TypeScript the packages promise to compile under (`tsc` strict, no peer range). */
const TYPESCRIPT_FLOOR = '~5.9.0'
/** The Node.js majors the matrix runs on. */
const NODE_MAJORS = ['20', '22', '24']

/** Which end of each range a row takes; for Node.js, of which major. */
export const ROWS = [
  {
    name: 'lowest',
    prisma: 'lowest',
    hono: 'lowest',
    typescript: 'lowest',
    node: ['20', 'lowest'],
  },
  {
    name: 'crossed',
    prisma: 'lowest',
    hono: 'latest',
    typescript: 'lowest',
    node: ['22', 'latest'],
  },
  {
    name: 'latest',
    prisma: 'latest',
    hono: 'latest',
    typescript: 'latest',
    node: ['24', 'latest'],
  },
]

const run = promisify(execFile)

/** Orders release versions (`7.10.0` < `7.10.1` < `7.11.0`). */
function compareVersions(a, b) {
  const [x, y] = [a, b].map((version) => version.split(/[.-]/).map(Number))
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i]
  return 0
}

/** The versions of `name` on the registry that every range of `ranges` allows, oldest first. */
async function allowedVersions(name, ranges) {
  // Ranges without `||` are one range once joined (`>=20.19 ^22`): one query to the registry.
  const unique = [...new Set(ranges)]
  const queries = unique.some((range) => range.includes('||')) ? unique : [unique.join(' ')]
  const lists = await Promise.all(
    queries.map(async (range) => {
      const { stdout } = await run('npm', ['view', `${name}@${range}`, 'version', '--json'])
      return [JSON.parse(stdout)].flat()
    })
  )
  const allowed = lists.reduce((all, list) => all.filter((version) => list.includes(version)))
  if (allowed.length === 0)
    throw new Error(`no version of ${name} satisfies ${ranges.join(' and ')}`)
  return allowed.sort(compareVersions)
}

/** The lowest and latest version of `name` the `ranges` allow. */
async function ends(name, ranges) {
  const allowed = await allowedVersions(name, ranges)
  return { lowest: allowed[0], latest: allowed.at(-1) }
}

/**
 * The values of the matrix: for each dependency the range the packages declare and its lowest
 * and latest version on the registry; for Node.js, the version of each major.
 */
export async function resolveValues() {
  const runtime = packageJson('runtime')
  const generator = packageJson('generator')
  const peer = (name) =>
    [runtime, generator].map((manifest) => manifest.peerDependencies?.[name]).filter(Boolean)
  const engines = [runtime, generator].map((manifest) => manifest.engines.node)
  // A driver adapter is published with each @prisma/client version and must match it: the
  // client's range is the adapter's.
  const [prisma, client, adapter, hono, nodeServer, typescript, latestTypescript, ...nodes] =
    await Promise.all([
      ends('prisma', peer('prisma')),
      ends('@prisma/client', peer('@prisma/client')),
      ends('@prisma/adapter-better-sqlite3', peer('@prisma/client')),
      ends('hono', peer('hono')),
      ends('@hono/node-server', peer('@hono/node-server')),
      ends('typescript', [TYPESCRIPT_FLOOR]),
      ends('typescript', ['latest']),
      ...NODE_MAJORS.map((major) => ends(nodePackage(), [...engines, `^${major}`])),
    ])
  return {
    prisma: { prisma, '@prisma/client': client, '@prisma/adapter-better-sqlite3': adapter },
    hono: { hono, '@hono/node-server': nodeServer },
    typescript: { typescript: { lowest: typescript.lowest, latest: latestTypescript.latest } },
    node: Object.fromEntries(NODE_MAJORS.map((major, i) => [major, nodes[i]])),
  }
}

/** The exact versions of `row`: the packages to pin in the install commands, and Node.js's. */
export function rowVersions(row, values) {
  const pins = {}
  for (const group of ['prisma', 'hono', 'typescript'])
    for (const [name, versions] of Object.entries(values[group])) pins[name] = versions[row[group]]
  const [major, end] = row.node
  // Node.js's types of the major the row runs on, as a project on it would install.
  pins['@types/node'] = major
  return { pins, node: values.node[major][end] }
}
