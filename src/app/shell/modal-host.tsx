/** Renders the modal stack; its code loads the first time a modal opens. */
import { lazy, Suspense } from 'react'
import { isHostedModal, useModalStack } from '../../shared/ui/modal-stack.ts'

const ModalStack = lazy(() => import('./modal-layer.tsx').then((m) => ({ default: m.ModalStack })))

export function ModalHost() {
  // The screens draw their own sheets (the saved replies); the host draws the app's modals.
  const stack = useModalStack().filter(isHostedModal)
  if (stack.length === 0) return null
  return (
    <Suspense fallback={null}>
      <ModalStack stack={stack} />
    </Suspense>
  )
}
