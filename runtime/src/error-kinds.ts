/**
 * @module
 * The kinds of error a problem's `@id` and `type` name (`/errors/422`): a title and a description
 * for every client and server error status, so that the document of any status a `HydraError` or
 * an `HTTPException` carries resolves (docs/errors.md).
 */
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status'

/**
 * The statuses of HTTP's errors, as Hono lists them: every status a `HydraError` can carry. 400 to
 * 418, 421 to 426, 428, 429, 431 and 451; 500 to 508, 510 and 511.
 */
export type ErrorStatusCode = ClientErrorStatusCode | ServerErrorStatusCode

/** What a kind of error is called and what it means. */
export interface ErrorKind {
  /** The status's reason phrase, the problem's `title`. */
  title: string
  /** What this kind of error means, the error document's `hydra:description`. */
  description: string
}

/**
 * Each error status's title (the reason phrase of RFC 9110, or of the RFC that registers it;
 * "An error occurred" for 400, as the reference writes it) and its description. Those the API
 * answers itself say when it does.
 */
const KINDS: Record<ErrorStatusCode, readonly [title: string, description: string]> = {
  400: [
    'An error occurred',
    'A parameter of the request was refused; the detail of the answer names it and says why.',
  ],
  401: [
    'Unauthorized',
    'The resource is used by authenticated callers only: the WWW-Authenticate header says how.',
  ],
  402: ['Payment Required', 'The request is refused until a payment is made.'],
  403: ['Forbidden', 'The caller is known and may not do what the request asks of the resource.'],
  404: [
    'Not Found',
    'No resource is at the IRI asked for: no route matches it, or no item has its key.',
  ],
  405: [
    'Method Not Allowed',
    'The resource does not take the method of the request: the Allow header lists those it takes.',
  ],
  406: ['Not Acceptable', 'The request accepts neither application/ld+json nor application/json.'],
  407: [
    'Proxy Authentication Required',
    'A proxy between the client and the server asks the client to authenticate to it.',
  ],
  408: ['Request Timeout', 'The request did not arrive within the time the server waits for it.'],
  409: ['Conflict', 'The request conflicts with the current state of the resource.'],
  410: ['Gone', 'The resource was at this IRI and is no longer, for good.'],
  411: ['Length Required', 'The request has content and no Content-Length header.'],
  412: [
    'Precondition Failed',
    'An If-Match of the request names no current representation: it changed since it was read.',
  ],
  413: ['Content Too Large', 'The content of the request is larger than the server takes.'],
  414: [
    'URI Too Long',
    'The request target (path and query string) is longer than the server reads.',
  ],
  415: [
    'Unsupported Media Type',
    'The content of the request is of a media type, or in an encoding, the resource does not take.',
  ],
  416: ['Range Not Satisfiable', 'No range the request asks for overlaps the representation.'],
  417: ['Expectation Failed', 'The Expect header of the request cannot be met.'],
  418: [
    "I'm a teapot",
    'A teapot refusing to brew coffee (RFC 2324); HTTP itself leaves this status unused.',
  ],
  421: ['Misdirected Request', 'The request reached a server that does not answer for its host.'],
  422: [
    'Unprocessable Content',
    'The content of the request is well-formed and of a type the resource takes, and what it asks cannot be done.',
  ],
  423: ['Locked', 'The resource is locked.'],
  424: ['Failed Dependency', 'The request depends on another action, which failed.'],
  425: ['Too Early', 'The request might be replayed, and the server will not risk processing it.'],
  426: [
    'Upgrade Required',
    'The server answers this request over another protocol: the Upgrade header names it.',
  ],
  428: ['Precondition Required', 'The server answers this request only with a precondition.'],
  429: [
    'Too Many Requests',
    'The client sent too many requests in a given time: the Retry-After header may say when to send the next one.',
  ],
  431: [
    'Request Header Fields Too Large',
    'The request head (request line and headers) is larger than the server reads.',
  ],
  451: [
    'Unavailable For Legal Reasons',
    'The resource is withheld from the caller as a consequence of a legal demand.',
  ],
  500: [
    'Internal Server Error',
    'The server could not complete the request; the cause is logged, not told.',
  ],
  501: ['Not Implemented', 'The server does not support what the request needs.'],
  502: ['Bad Gateway', 'A server this one relies on gave it an answer it could not use.'],
  503: [
    'Service Unavailable',
    'The service cannot answer for a moment, such as when its database cannot be reached: the Retry-After header says when to try again.',
  ],
  504: ['Gateway Timeout', 'A server this one relies on did not answer in time.'],
  505: ['HTTP Version Not Supported', 'The server does not speak the HTTP version of the request.'],
  506: [
    'Variant Also Negotiates',
    'The server is misconfigured: the variant it chose negotiates in its turn.',
  ],
  507: ['Insufficient Storage', 'The server cannot store what the request needs.'],
  508: ['Loop Detected', 'The server met an endless loop while processing the request.'],
  510: ['Not Extended', 'The request lacks an extension the server requires.'],
  511: [
    'Network Authentication Required',
    'The client must authenticate to gain access to the network.',
  ],
}

/** The title of a status no specification registers, and of 400, as the reference writes it. */
const GENERIC_TITLE = 'An error occurred'

/** The description of an error status no specification registers (an app's own 520, say). */
const UNREGISTERED =
  'An error of the server or of the request that its status code alone names: no specification of HTTP registers it.'

/** Whether `status` is an error status (400 to 599): every one has a kind. */
function isErrorStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 400 && status <= 599
}

/** The kind of error of `status`, for any status from 400 to 599; undefined for the others. */
export function errorKind(status: number): ErrorKind | undefined {
  if (!isErrorStatus(status)) return undefined
  const known = KINDS[status as ErrorStatusCode]
  return known
    ? { title: known[0], description: known[1] }
    : { title: GENERIC_TITLE, description: UNREGISTERED }
}

/** The title of a problem of `status`: its kind's, else "An error occurred". */
export function statusTitle(status: number): string {
  return errorKind(status)?.title ?? GENERIC_TITLE
}
