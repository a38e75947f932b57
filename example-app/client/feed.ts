/**
 * The activity feed as an infinite list, both ways: scrolled to its bottom it reads the next page
 * by the `next` link of the last page shown, scrolled to its top the page before by the
 * `previous` link of the first; at most three pages are kept, so a long scroll drops the pages at
 * the other end and reads them again coming back. The list states what it holds (`data-*`) for
 * the page test.
 */
import { infinitePagesOptions } from '@prisma-hydra/runtime/client'
import { useInfiniteQuery } from '@tanstack/react-query'
import { createElement as h, useEffect, useLayoutEffect, useRef } from 'react'
import { activities } from './api.js'

/** Pages kept at once. */
const KEPT = 3

/** How near an end of the list, in pixels, counts as at it. */
const NEAR = 4

export function Feed() {
  const query = useInfiniteQuery({
    ...infinitePagesOptions(activities, ['activities']),
    maxPages: KEPT,
  })
  const { hasNextPage, hasPreviousPage, isFetching } = query
  const list = useRef<HTMLUListElement>(null)
  // A page read above the list pushes it down, and a browser keeps no scroll anchor at the top:
  // the activity shown first stays where it was, as the page below scrolled to it.
  const anchor = useRef<{ id: string; top: number } | undefined>(undefined)
  const offset = (item: Element) =>
    item.getBoundingClientRect().top - (list.current?.getBoundingClientRect().top ?? 0)
  const readPrevious = () => {
    const first = list.current?.querySelector<HTMLElement>('li.activity')
    if (first) anchor.current = { id: first.dataset.id ?? '', top: offset(first) }
    void query.fetchPreviousPage()
  }
  useLayoutEffect(() => {
    const saved = anchor.current
    const element = list.current
    const item = saved && element?.querySelector(`li[data-id="${saved.id}"]`)
    if (!saved || !element || !item || item === element.querySelector('li.activity')) return
    element.scrollTop += offset(item) - saved.top
    anchor.current = undefined
  })
  // At the bottom, the next page; at the top, the page before: on each scroll, and after each
  // page read while the list stays at an end, as a scroll would ask.
  const readAtEnd = () => {
    const element = list.current
    if (!element || isFetching) return
    if (hasNextPage && element.scrollTop + element.clientHeight >= element.scrollHeight - NEAR)
      void query.fetchNextPage()
    else if (hasPreviousPage && element.scrollTop <= NEAR) readPrevious()
  }
  useEffect(readAtEnd)
  const members = query.data?.pages.flatMap((page) => page.members) ?? []
  return h(
    'section',
    null,
    h('h2', null, 'Activity'),
    h(
      'ul',
      {
        id: 'feed',
        ref: list,
        onScroll: readAtEnd,
        'data-has-next': String(hasNextPage),
        'data-has-previous': String(hasPreviousPage),
        'data-fetching': String(isFetching),
        'data-error': query.error ? String(query.error) : undefined,
      },
      h('li', { className: 'edge' }, hasPreviousPage ? 'newer…' : 'newest'),
      ...members.map((activity) =>
        h(
          'li',
          { key: activity['@id'], 'data-id': activity['@id'], className: 'activity' },
          `${activity.occurredAt.slice(0, 16).replace('T', ' ')} ${activity.kind}: ${activity.summary}`
        )
      ),
      h('li', { className: 'edge' }, hasNextPage ? 'older…' : 'the end')
    )
  )
}
