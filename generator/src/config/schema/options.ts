import { countPreferences, defaultPagingConfig } from '@prisma-hydra/runtime/defaults'
import { z } from 'zod'

/**
 * The paging options (docs/annotations.md#options-at-every-level), as they are written on a
 * resource (`@pagination(...)`) or an operation (`@operation(...)`). Each has a short name (the
 * spec name without the `pagination` prefix) and its spec name; both are accepted.
 */
export const pagingOptionSpecs = {
  enabled: {
    specName: 'paginationEnabled',
    globalKey: 'pagination_enabled',
    schema: z.boolean(),
    allowed: 'true or false',
  },
  clientEnabled: {
    specName: 'paginationClientEnabled',
    globalKey: 'pagination_client_enabled',
    schema: z.boolean(),
    allowed: 'true or false',
  },
  itemsPerPage: {
    specName: 'paginationItemsPerPage',
    globalKey: 'pagination_items_per_page',
    schema: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    allowed: 'a whole number of at least 1',
  },
  clientItemsPerPage: {
    specName: 'paginationClientItemsPerPage',
    globalKey: 'pagination_client_items_per_page',
    schema: z.boolean(),
    allowed: 'true or false',
  },
  maximumItemsPerPage: {
    specName: 'paginationMaximumItemsPerPage',
    globalKey: 'pagination_maximum_items_per_page',
    schema: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
    allowed: 'a whole number of at least 1, or null for no maximum',
  },
  partial: {
    specName: 'paginationPartial',
    globalKey: 'pagination_partial',
    schema: z.boolean(),
    allowed: 'true or false',
  },
  clientPartial: {
    specName: 'paginationClientPartial',
    globalKey: 'pagination_client_partial',
    schema: z.boolean(),
    allowed: 'true or false',
  },
  viaCursor: {
    specName: 'paginationViaCursor',
    globalKey: null,
    schema: z
      .array(
        z.strictObject({
          /** The field's name. */
          field: z.string().min(1),
          /** `ASC` or `DESC`, in any case. */
          direction: z
            .string()
            .regex(/^(asc|desc)$/i)
            .transform((value) => value.toUpperCase() as 'ASC' | 'DESC'),
        })
      )
      .min(1),
    allowed: 'a list of { field: "<field>", direction: "ASC" | "DESC" }',
  },
  totals: {
    specName: 'paginationTotals',
    globalKey: 'pagination_totals',
    schema: z.enum(['exact', 'estimated', 'cached']),
    allowed: '"exact", "estimated" (PostgreSQL) or "cached"',
  },
  totalsCacheSeconds: {
    specName: 'paginationTotalsCacheSeconds',
    globalKey: 'pagination_totals_cache_seconds',
    schema: z.number().int().min(1).max(86_400),
    allowed: 'a whole number of seconds from 1 to 86400',
  },
  clientTotals: {
    specName: 'paginationClientTotals',
    globalKey: 'pagination_client_totals',
    schema: z.union([
      z.boolean(),
      z
        .array(z.enum(countPreferences))
        .min(1)
        .refine((modes) => new Set(modes).size === modes.length),
    ]),
    allowed: `true, false, or a list of distinct totals among ${countPreferences.map((mode) => `"${mode}"`).join(', ')}`,
  },
  engine: {
    specName: 'paginationEngine',
    globalKey: 'engine',
    schema: z.enum(['prisma', 'compiled']),
    allowed: '"prisma" or "compiled"',
  },
  fetchJoinCollection: {
    specName: 'paginationFetchJoinCollection',
    globalKey: null,
    schema: z.boolean(),
    allowed: 'true or false',
  },
  useOutputWalkers: {
    specName: 'paginationUseOutputWalkers',
    globalKey: null,
    schema: z.boolean(),
    allowed: 'true or false',
  },
} as const

/**
 * The short name of a paging option.
 *
 * @useDeclaredType
 */
export type PagingOptionName = keyof typeof pagingOptionSpecs

/**
 * Paging options as written on a resource, an operation or in the platform file, each left out
 * where not written (docs/annotations.md#options-at-every-level).
 *
 * @interface
 * @property enabled - Page the collection at all (`paginationEnabled`; default true).
 * @property clientEnabled - Clients may switch paging with `pagination` (default false).
 * @property itemsPerPage - The page size (default 30).
 * @property clientItemsPerPage - Clients may set the page size with `itemsPerPage` (default false).
 * @property maximumItemsPerPage - The cap on the page size when clients may set it; `null`: no cap
 *   (default 30).
 * @property partial - Partial paging: no count query, no last link (default false).
 * @property clientPartial - Clients may switch partial paging with `partial` (default false).
 * @property viaCursor - Cursor paging on these fields, in order (docs/cursor-paging.md).
 * @property totals - How full paging counts: `exact` (default), `estimated` (PostgreSQL) or
 *   `cached`.
 * @property totalsCacheSeconds - With `totals: "cached"`: how long a count is reused (default 10).
 * @property clientTotals - The totals clients may ask for with `Prefer: count=…`: `true` (every
 *   one), a list of `exact`, `estimated`, `planned`, `none`, or `false` (default: the header is
 *   ignored).
 * @property engine - The read engine: `prisma` (default) or `compiled`.
 * @property fetchJoinCollection - Accepted for compatibility with API Platform; no effect.
 * @property useOutputWalkers - Accepted for compatibility with API Platform; no effect.
 */
export type PagingOptions = {
  -readonly [K in PagingOptionName]?: z.output<(typeof pagingOptionSpecs)[K]['schema']>
}

/**
 * One field of a cursor key as written: its name and direction.
 *
 * @useDeclaredType
 */
export type CursorField = NonNullable<PagingOptions['viaCursor']>[number]

export const pagingOptionNames = Object.keys(pagingOptionSpecs) as PagingOptionName[]

const bySpecName = new Map<string, PagingOptionName>(
  pagingOptionNames.map((name) => [pagingOptionSpecs[name].specName, name])
)

/** Checks and normalizes one option's value. */
export function readOption(
  name: PagingOptionName,
  value: unknown
): { ok: true; value: unknown } | { ok: false } {
  const result = pagingOptionSpecs[name].schema.safeParse(value)
  return result.success ? { ok: true, value: result.data } : { ok: false }
}

/** Maps a written option name (short or spec form) to its short name. */
export function canonicalOptionName(written: string): PagingOptionName | undefined {
  if (Object.hasOwn(pagingOptionSpecs, written)) return written as PagingOptionName
  return bySpecName.get(written)
}

/** Every name an option may be written under, short names first. */
export function allWrittenOptionNames(): string[] {
  return [
    ...pagingOptionNames,
    ...pagingOptionNames.map((name) => pagingOptionSpecs[name].specName),
  ]
}

/** The four query parameter names (docs/annotations.md#global-settings-and-parameter-names). */
export const parameterNameKeys = {
  page: 'page_parameter_name',
  enabled: 'enabled_parameter_name',
  itemsPerPage: 'items_per_page_parameter_name',
  partial: 'partial_parameter_name',
} as const

/**
 * The names of the four paging parameters.
 *
 * @interface
 * @property page - The page number's (default `page`).
 * @property enabled - The one switching paging (default `pagination`).
 * @property itemsPerPage - The page size's (default `itemsPerPage`).
 * @property partial - The one switching partial paging (default `partial`).
 */
export type ParameterNames = { -readonly [K in keyof typeof parameterNameKeys]: string }

export const defaultParameterNames: ParameterNames = { ...defaultPagingConfig.parameters }

/** Built-in defaults (docs/annotations.md#options-at-every-level), the runtime's: one source. */
export const builtInPaging = {
  enabled: defaultPagingConfig.enabled,
  clientEnabled: defaultPagingConfig.clientEnabled,
  itemsPerPage: defaultPagingConfig.itemsPerPage,
  clientItemsPerPage: defaultPagingConfig.clientItemsPerPage,
  maximumItemsPerPage: defaultPagingConfig.maximumItemsPerPage,
  partial: defaultPagingConfig.partial,
  clientPartial: defaultPagingConfig.clientPartial,
}

/** A query parameter name must survive a round trip through a query string untouched. */
export const parameterNameSchema = z.string().regex(/^[A-Za-z0-9_.~-]+$/)
export const parameterNameAllowed =
  'a non-empty name made of letters, digits and - _ . ~ (no brackets, spaces, & or =)'
