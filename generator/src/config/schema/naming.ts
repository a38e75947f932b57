import { pluralize as inflectPlural } from 'inflection'

/** `BookReview` → `book-review`. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase()
}

/** `book-review` → `bookReview`. */
export function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_, char: string) => char.toUpperCase())
}

/** `bookReview` → `BookReview`. */
export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/** The PrismaClient property of a model: the model name with its first letter in lower case. */
export function delegateName(model: string): string {
  return model.charAt(0).toLowerCase() + model.slice(1)
}

/**
 * English plural of the last word of a kebab-case name (`book-review` → `book-reviews`,
 * `event-data` → `event-data`, `person` → `people`), by `inflection`, a port of Rails' English
 * inflector, as API Platform pluralizes with Symfony's English inflector.
 */
export function pluralize(word: string): string {
  const cut = word.lastIndexOf('-') + 1
  return `${word.slice(0, cut)}${inflectPlural(word.slice(cut))}`
}

/** Default collection path: the model name in kebab-case plural (`BookReview` → `/book-reviews`). */
export function collectionPathFor(model: string): string {
  return `/${pluralize(kebabCase(model))}`
}
