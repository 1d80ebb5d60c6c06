/** Renders the modal stack; its code loads the first time a modal opens. */
import { lazy, Suspense } from 'react'
import { useModalStack } from '../../shared/ui/modal-stack.ts'

const ModalStack = lazy(() => import('./modal-layer.tsx').then((m) => ({ default: m.ModalStack })))

export function ModalHost() {
  const stack = useModalStack()
  if (stack.length === 0) return null
  return (
    <Suspense fallback={null}>
      <ModalStack stack={stack} />
    </Suspense>
  )
}
