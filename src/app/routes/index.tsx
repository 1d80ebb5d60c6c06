import { createFileRoute } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'

export const Route = createFileRoute('/')({
  component: () => (
    <main className="p-8">
      <h1 className="text-2xl font-semibold">
        <Trans>Pagecast</Trans>
      </h1>
    </main>
  ),
})
