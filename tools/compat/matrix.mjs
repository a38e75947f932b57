// The compatibility matrix: the lowest and the highest versions the packages' ranges allow, read
// from their package.json, and the registry's latest of each (its `latest` tag, inside the range
// or not), all resolved on the npm registry at each run: a new release inside a range is tested
// the day it is published, and so is a new major outside it, which the `latest` row installs
// (npm then refuses the range, and the row fails: widen the range, or say why not).
//
// A full cross product (2 Prisma × 2 Hono × 2 TypeScript × 3 Node.js = 24 projects of about a
// minute and a half each) is too slow for CI. Three rows cover every value at least once: the
// lowest of everything together, the registry's latest of everything together, and a row
// crossing them (the lowest Prisma with the highest Hono its range allows, whose types are
// checked by the oldest TypeScript), so that each Node.js major runs once. Node.js's lowest row
// takes the engines' floor, 20.19.0. A range of two majors (`@hono/node-server`'s `^1.19.11 ||
// ^2.0.0`) has its lowest in the older one and its highest and latest in the newer.

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { packageJson } from '../release/release-packages.mjs'
import { nodePackage } from './node-binaries.mjs'

/** The oldest TypeScript the packages promise to compile under (`tsc` strict, no peer range). */
const TYPESCRIPT_FLOOR = '~5.9.0'
/** The Node.js majors the matrix runs on. */
const NODE_MAJORS = ['20', '22', '24']

/**
 * Which version of each range a row takes: its `lowest`, its `highest`, or the registry's
 * `latest`; for Node.js, the lowest or highest of which major.
 */
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
    hono: 'highest',
    typescript: 'lowest',
    node: ['22', 'highest'],
  },
  {
    name: 'latest',
    prisma: 'latest',
    hono: 'latest',
    typescript: 'latest',
    node: ['24', 'highest'],
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

/** The version the registry tags `latest` for `name`: what `npm install <name>` installs. */
async function registryLatest(name) {
  const { stdout } = await run('npm', ['view', name, 'dist-tags.latest'])
  return stdout.trim()
}

/** The lowest and highest version of `name` the `ranges` allow, and the registry's latest. */
async function ends(name, ranges) {
  const [allowed, latest] = await Promise.all([allowedVersions(name, ranges), registryLatest(name)])
  return { lowest: allowed[0], highest: allowed.at(-1), latest }
}

/**
 * Every peer dependency of the packages, optional ones included, whose registry latest their
 * range refuses: one line each (a user installing it beside them gets npm's `ERESOLVE`).
 */
export async function latestOutsideRanges() {
  const peers = ['runtime', 'generator'].flatMap((dir) => {
    const manifest = packageJson(dir)
    return Object.entries(manifest.peerDependencies ?? {}).map(([name, range]) => ({
      name,
      range,
      of: manifest.name,
    }))
  })
  const refused = await Promise.all(
    peers.map(async ({ name, range, of }) => {
      const [allowed, latest] = await Promise.all([
        allowedVersions(name, [range]),
        registryLatest(name),
      ])
      return allowed.includes(latest) ? [] : [`${name} ${latest} (${of} asks for ${range})`]
    })
  )
  return refused.flat()
}

/**
 * The values of the matrix: for each dependency the lowest and highest version on the registry
 * of the range the packages declare, and the registry's latest; for Node.js, the lowest and
 * highest version of each major.
 */
export async function resolveValues() {
  const runtime = packageJson('runtime')
  const generator = packageJson('generator')
  const peer = (name) =>
    [runtime, generator].map((manifest) => manifest.peerDependencies?.[name]).filter(Boolean)
  const engines = [runtime, generator].map((manifest) => manifest.engines.node)
  const [prisma, client, hono, nodeServer, typescript, ...nodes] = await Promise.all([
    ends('prisma', peer('prisma')),
    ends('@prisma/client', peer('@prisma/client')),
    ends('hono', peer('hono')),
    ends('@hono/node-server', peer('@hono/node-server')),
    ends('typescript', [TYPESCRIPT_FLOOR]),
    ...NODE_MAJORS.map((major) => allowedVersions(nodePackage(), [...engines, `^${major}`])),
  ])
  return {
    // A driver adapter is published with each @prisma/client version and must match it: it
    // takes the client's version (rowVersions).
    prisma: { prisma, '@prisma/client': client },
    hono: { hono, '@hono/node-server': nodeServer },
    typescript: { typescript },
    node: Object.fromEntries(
      NODE_MAJORS.map((major, i) => [major, { lowest: nodes[i][0], highest: nodes[i].at(-1) }])
    ),
  }
}

/** The exact versions of `row`: the packages to pin in the install commands, and Node.js's. */
export function rowVersions(row, values) {
  const pins = {}
  for (const group of ['prisma', 'hono', 'typescript'])
    for (const [name, versions] of Object.entries(values[group])) pins[name] = versions[row[group]]
  pins['@prisma/adapter-better-sqlite3'] = pins['@prisma/client']
  const [major, end] = row.node
  // Node.js's types of the major the row runs on, as a project on it would install.
  pins['@types/node'] = major
  return { pins, node: values.node[major][end] }
}
