/**
 * Debian's Chromium as the browser tests drive it through playwright-core: whether it is there
 * (required under CI, else the test is skipped with a message), and launched headless with the
 * flags this offline machine needs (the browser's background connections are refused by it).
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Whether Chromium is installed; under CI its absence throws, else `skipped` says what is skipped. */
export function chromiumPresent(skipped: string): boolean {
  if (existsSync(CHROMIUM)) return true
  const message = `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium): ${skipped} is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
  return false
}

/** A headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
}
