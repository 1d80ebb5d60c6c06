/**
 * The open modals: each nests the next, so only the top one traps focus and takes Escape. Loaded with the
 * first modal opened (see modal-host.tsx), so the dialog library and the modal bodies stay off the first route.
 */
import { useLingui } from '@lingui/react/macro'
import { lazy, type ReactNode, Suspense } from 'react'
import { CancelModalBody } from '../../features/subscription/components/cancel-modal.tsx'
import { ConfirmBrandedBody } from '../../features/subscription/components/branded-banner.tsx'
import { UserModalBody } from '../../features/subscription/components/user-modal.tsx'
import { SignOutConfirmBody } from '../../features/account/components/sign-out-confirm.tsx'
import { EditScheduledBody } from '../../features/bulk/components/scheduled-edit.tsx'
import { CancelScheduledBody, CancelSendBody } from '../../features/bulk/components/cancel-confirm.tsx'
import { MarketingModalBody } from './marketing-modal.tsx'
import { LoadingDots } from '../../shared/ui/loading-dots.tsx'
import { closeModal, type HostedModalName } from '../../shared/ui/modal-stack.ts'
import { ModalFrame } from '../../shared/ui/modal-frame.tsx'
import { signOut } from './sign-out.ts'

const PlansModalBody = lazy(() =>
  import('../../features/plans/components/plans-modals.tsx').then((m) => ({ default: m.PlansModalBody })),
)
const AddonsModalBody = lazy(() =>
  import('../../features/plans/components/plans-modals.tsx').then((m) => ({ default: m.AddonsModalBody })),
)

const SendHistoryBody = lazy(() =>
  import('../../features/bulk/components/send-history.tsx').then((m) => ({ default: m.SendHistoryBody })),
)

function useModalContent(): Record<HostedModalName, { title: string; body: ReactNode; wide?: boolean }> {
  const { t } = useLingui()
  return {
    user: { title: t`My subscription`, body: <UserModalBody /> },
    'cancel-subscription': { title: t`Cancel subscription`, body: <CancelModalBody /> },
    plans: { title: t`Plans`, body: <PlansModalBody />, wide: true },
    addons: { title: t`Buy more messages`, body: <AddonsModalBody /> },
    'confirm-branded': { title: t`Authorise branded messages`, body: <ConfirmBrandedBody /> },
    'confirm-sign-out': { title: t`Sign out?`, body: <SignOutConfirmBody onConfirm={signOut} /> },
    'edit-scheduled': { title: t`Edit scheduled send`, body: <EditScheduledBody /> },
    'cancel-scheduled': { title: t`Cancel this scheduled send?`, body: <CancelScheduledBody /> },
    'cancel-send': { title: t`Stop this send?`, body: <CancelSendBody /> },
    // The page's marketing settings draw their body here (src/features/marketing).
    marketing: { title: t`Marketing messages`, body: <MarketingModalBody /> },
    'send-history': { title: t`Send history`, body: <SendHistoryBody />, wide: true },
  }
}

export function ModalStack({ stack }: { stack: readonly HostedModalName[] }) {
  const content = useModalContent()
  return <ModalLayer stack={stack} index={0} content={content} />
}

function ModalLayer({
  stack,
  index,
  content,
}: {
  stack: readonly HostedModalName[]
  index: number
  content: ReturnType<typeof useModalContent>
}) {
  const name = stack[index]
  if (!name) return null
  const { title, body, wide } = content[name]
  return (
    <ModalFrame
      title={title}
      wide={wide}
      onClose={() => closeModal(name)}
      stacked={<ModalLayer stack={stack} index={index + 1} content={content} />}
    >
      <Suspense fallback={<LoadingDots />}>{body}</Suspense>
    </ModalFrame>
  )
}
