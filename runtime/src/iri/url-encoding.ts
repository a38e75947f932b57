/**
 * @module
 * PHP's `urldecode` and `rawurlencode`, byte for byte: how API Platform reads the names and values
 * of a query string and writes them back into its links (docs/paging.md#parameter-parsing).
 * Pure; never throws on user input.
 */

const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/**
 * PHP `urldecode`: `+` is a space, `%XX` (two hex digits, either case) is a byte, and anything
 * else, including a malformed escape such as `%zz` or a trailing `%`, is kept as it is. The bytes
 * are read as UTF-8 (raw non-ASCII characters in the input count as their UTF-8 bytes); an invalid
 * sequence becomes U+FFFD.
 */
export function urlDecode(input: string): string {
  if (!input.includes('%') && !input.includes('+')) return input
  const bytes = Buffer.from(input, 'utf8')
  const out = new Uint8Array(bytes.length)
  let length = 0
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number
    if (byte === 0x2b) {
      out[length++] = 0x20
      continue
    }
    if (byte === 0x25 && i + 2 < bytes.length) {
      const high = hexValue(bytes[i + 1] as number)
      const low = hexValue(bytes[i + 2] as number)
      if (high >= 0 && low >= 0) {
        out[length++] = high * 16 + low
        i += 2
        continue
      }
    }
    out[length++] = byte
  }
  return utf8Decoder.decode(out.subarray(0, length))
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57
  return -1
}

const HEX = '0123456789ABCDEF'

/** What `encodeURIComponent` keeps that `rawurlencode` escapes. */
const KEPT_BY_ENCODE_URI = /[!'()*]/g
const escaped = (character: string): string =>
  `%${HEX[character.charCodeAt(0) >> 4]}${HEX[character.charCodeAt(0) & 15]}`

/**
 * PHP `rawurlencode` (RFC 3986): `A-Z a-z 0-9 - _ . ~` are kept, every other UTF-8 byte becomes
 * `%XX` with upper-case hex. A lone surrogate is encoded as U+FFFD.
 *
 * The engine's `encodeURIComponent` writes the same bytes in one string, save five characters it
 * keeps; the loop over the bytes below made a string a byte (3 KB of a cursor page's 107 KB
 * allocated, its links' dates: bench/RESULTS.md, "Retired experiments and what they found", "The
 * route's own work") and is left for what `encodeURIComponent` refuses, a lone surrogate.
 */
export function rawUrlEncode(input: string): string {
  if (/^[A-Za-z0-9\-_.~]*$/.test(input)) return input
  let encoded: string
  try {
    encoded = encodeURIComponent(input)
  } catch {
    return encodeBytes(input)
  }
  return encoded.replace(KEPT_BY_ENCODE_URI, escaped)
}

/** `rawurlencode` byte by byte, a lone surrogate read as U+FFFD (as `Buffer.from` reads it). */
function encodeBytes(input: string): string {
  let out = ''
  for (const byte of Buffer.from(input, 'utf8')) {
    if (
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      (byte >= 0x30 && byte <= 0x39) ||
      byte === 0x2d ||
      byte === 0x5f ||
      byte === 0x2e ||
      byte === 0x7e
    ) {
      out += String.fromCharCode(byte)
    } else {
      out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`
    }
  }
  return out
}
