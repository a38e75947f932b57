/**
 * The authors as a paged table: the first page, then the page each button's link names (the
 * `first`, `previous`, `next` and `last` links of the page shown), read with TanStack Query's
 * page query. A button whose link the page lacks is disabled.
 */
import { type PageLinks, pageQueryOptions } from '@prisma-hydra/runtime/client'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createElement as h, useState } from 'react'
import { authors } from './api.js'

const BUTTONS: (keyof PageLinks)[] = ['first', 'previous', 'next', 'last']

export function AuthorsTable() {
  const [url, setUrl] = useState<string | null>(null)
  const query = useQuery({
    ...pageQueryOptions(authors, ['authors'], url),
    placeholderData: keepPreviousData,
  })
  const page = query.data
  return h(
    'section',
    null,
    h('h2', null, 'Authors'),
    h(
      'p',
      {
        id: 'authors-page',
        'data-url': page?.url ?? '',
        'data-fetching': String(query.isFetching),
      },
      page ? `${page.totalItems ?? '?'} authors` : 'loading…'
    ),
    h(
      'table',
      { id: 'authors' },
      h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', null, 'Country'))),
      h(
        'tbody',
        null,
        ...(page?.members ?? []).map((author) =>
          h(
            'tr',
            { key: author['@id'], 'data-id': author['@id'] },
            h('td', null, author.name ?? ''),
            h('td', null, author.country ?? '')
          )
        )
      )
    ),
    h(
      'nav',
      null,
      ...BUTTONS.map((name) => {
        const link = page?.links[name]
        return h(
          'button',
          {
            key: name,
            id: `authors-${name}`,
            type: 'button',
            disabled: link === undefined,
            onClick: () => setUrl(link ?? null),
          },
          name
        )
      })
    )
  )
}
