/**
 * The SQL of the generated counts, written into tagged templates of `prisma.$queryRaw` at
 * generation time: the table's mapped name (`@@map`) and schema (`@@schema`) quoted as the
 * provider quotes identifiers. Nothing is concatenated at run time; the only run-time parts are
 * Prisma.sql fragments and values, which Prisma sends as parameters.
 *
 * Why raw SQL: every count API of Prisma 7 (`count()`, `aggregate({ _count })`) sends
 * `SELECT COUNT(*) FROM (SELECT id FROM t WHERE 1=1 LIMIT -1 OFFSET 0)`, which steps over every row
 * where a plain `SELECT COUNT(*) FROM t` is answered from the smallest index (SQLite) or by a
 * parallel scan (PostgreSQL): 4× slower at a million rows on SQLite (docs/performance.md).
 */

/** A database identifier quoted for `provider`. */
export function quoteIdentifier(provider: string, name: string): string {
  if (provider === 'mysql') return `\`${name.replace(/`/g, '``')}\``
  if (provider === 'sqlserver') return `[${name.replace(/]/g, ']]')}]`
  return `"${name.replace(/"/g, '""')}"`
}

/** The table as a statement names it: schema-qualified only when the model declares `@@schema`. */
export function qualifiedTable(
  provider: string,
  table: { name: string; schema: string | null }
): string {
  const name = quoteIdentifier(provider, table.name)
  return table.schema ? `${quoteIdentifier(provider, table.schema)}.${name}` : name
}

/** Text as it must be written between the backticks of a template literal to mean itself. */
export function templateText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')
}
