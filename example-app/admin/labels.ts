/**
 * Column and field labels: the property's name as the API documentation gives it (its
 * `hydra:title`, the member's key), split into words. react-admin's own guess drops a trailing
 * "id" (`authorId` would read "Author" over a column of numbers), which names a different property.
 */
import { defaultI18nProvider, type I18nProvider } from 'react-admin'

/** react-admin's translation key of a field's label: `resources.<resource>.fields.<source>`. */
const FIELD_LABEL = /^resources\.[^.]+\.fields\.(.+)$/

/** `publishedAt` -> "Published at", `authorId` -> "Author id", `isbn` -> "Isbn". */
export function labelOf(property: string): string {
  const words = property
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** react-admin's English messages, with every field labelled by its property's name. */
export const i18nProvider: I18nProvider = {
  ...defaultI18nProvider,
  translate: (key, options) => {
    const field = FIELD_LABEL.exec(key)?.[1]
    return field ? labelOf(field) : defaultI18nProvider.translate(key, options)
  },
}
