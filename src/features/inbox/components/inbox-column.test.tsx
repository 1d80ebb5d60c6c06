import { afterEach, describe, expect, it } from 'vitest'
import { act, Profiler } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { ConversationListState } from '../api/use-conversation-list.ts'
import type { InboxRow } from '../model/list-view.ts'
import { cachedRows } from '../testing/rows.ts'
import { InboxColumn } from './inbox-column.tsx'

/** The page's messaging policy, one object for every render. */
const WINDOW = { policy: 'current', humanAgentEnabled: false } as const

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined

const rows: InboxRow[] = cachedRows(200).map((r) => ({ ...r, needsReply: false }))

const list: ConversationListState = {
  rows,
  initialising: false,
  loading: false,
  exhausted: true,
  loadMore: () => undefined,
  refresh: () => Promise.resolve(),
  refreshing: false,
  sync: { phase: 'done', synced: rows.length },
  unread: 0,
}

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

describe('the inbox column', () => {
  it('draws a typed letter in the filter first, and the list once that frame is painted', async () => {
    host = document.createElement('div')
    host.style.cssText = 'display:flex;height:600px;width:360px'
    document.body.append(host)
    root = createRoot(host)
    // The list asks each row it draws for its picture: how many rows were drawn.
    let drawn = 0
    const pictureUrl = () => {
      drawn += 1
      return undefined
    }
    const commits: { value: string; drawn: number; shown: number }[] = []
    const onRender = () => {
      commits.push({
        value: host!.querySelector<HTMLInputElement>('[data-testid="conversation-filter"]')!.value,
        drawn,
        shown: host!.querySelectorAll('[data-testid="conversation-row"]').length,
      })
    }
    await act(async () => {
      root!.render(
        <I18nProvider i18n={i18n}>
          <Profiler id="column" onRender={onRender}>
            <InboxColumn
              list={list}
              rows={rows}
              filter={{ kind: 'all' }}
              sort="newest"
              onFilter={() => undefined}
              onSort={() => undefined}
              onMarkDone={() => undefined}
              bulkOpen={false}
              pictureUrl={pictureUrl}
              onSelect={() => undefined}
              onToggleBulk={() => undefined}
              windowOptions={WINDOW}
            />
          </Profiler>
        </I18nProvider>,
      )
    })
    const input = host.querySelector<HTMLInputElement>('[data-testid="conversation-filter"]')!
    const before = { drawn, commits: commits.length, shown: commits.at(-1)!.shown }
    expect(before.shown).toBeGreaterThan(5)

    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '199')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    // The keystroke's own render: the letter is in the input, and not one row was drawn again.
    expect(commits.slice(before.commits)).toEqual([
      { value: '199', drawn: before.drawn, shown: before.shown },
    ])
    // The frame that shows the letter is painted before the list is filtered.
    await act(async () => {
      await new Promise((painted) => requestAnimationFrame(painted))
      expect(commits.slice(before.commits)).toHaveLength(1)
      await new Promise((after) => setTimeout(after, 50))
    })
    const after = commits.slice(before.commits)
    // Then the list follows: only the match.
    expect(after.at(-1)).toMatchObject({ value: '199', shown: 1 })
    expect(host.querySelector('[data-testid="conversation-name"]')?.textContent).toBe('Customer 199')
  })
})
