import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRoot, type Root } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { db } from '../../../device/db/db.ts'
import type { LabelsGraph, PageLabel } from '../../../core/graph/labels.ts'
import { LabelFilter } from './list-labels.tsx'

i18n.loadAndActivate({ locale: 'en', messages: {} })
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false

const VIP: PageLabel = { id: '11', name: 'VIP' }
const customers = Array.from({ length: 60 }, (_, i) => `p${i}`)

/** The network's labels: every third customer is a VIP. */
const graph: LabelsGraph = {
  pageLabels: async () => [VIP],
  createLabel: async () => '12',
  deleteLabel: async () => undefined,
  addLabel: async () => undefined,
  removeLabel: async () => undefined,
  userLabels: async (psid) => (Number(psid.slice(1)) % 3 === 0 ? [VIP] : []),
  usersLabels: async (psids) => new Map(psids.map((p) => [p, Number(p.slice(1)) % 3 === 0 ? [VIP] : []])),
}

let root: Root | undefined
let host: HTMLElement | undefined

beforeEach(async () => {
  await db.customerLabels.clear()
})

afterEach(() => {
  root?.unmount()
  host?.remove()
})

describe('the label filter', () => {
  it('counts the labels it reads as they are stored, without drawing the screen that holds it again', async () => {
    host = document.createElement('div')
    document.body.append(host)
    root = createRoot(host)
    let holderDrawn = 0
    function Holder() {
      holderDrawn += 1
      return (
        <LabelFilter
          pageId="page"
          graph={graph}
          withToken={(call) => call('token')}
          ready
          labels={[VIP]}
          customerIds={customers}
          onFilter={() => undefined}
          selecting={false}
          onSelecting={() => undefined}
        />
      )
    }
    root.render(
      <I18nProvider i18n={i18n}>
        <Holder />
      </I18nProvider>,
    )
    const count = () => host!.querySelector('[data-label-id="11"] span:last-child')?.textContent
    await expect.poll(count).toBe('0')
    // Read after half a second, a batch of customers a write: the count follows the writes.
    await expect.poll(count, { timeout: 5_000 }).toBe('20')
    expect(await db.customerLabels.count()).toBe(60)
    expect(holderDrawn).toBe(1)
  })
})
