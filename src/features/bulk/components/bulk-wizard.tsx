/** The three-step bulk-message wizard (audience, content type, writing and sending). */
import { Trans } from '@lingui/react/macro'

export interface BulkWizardProps {
  pageId: string
  pageName: string
  pageToken: string
  onClose(): void
}

export function BulkWizard(_props: BulkWizardProps) {
  return (
    <section aria-label="bulk">
      <Trans>Send a new bulk message</Trans>
    </section>
  )
}
