import { createFileRoute } from '@tanstack/react-router'
import PlansPage from '../../features/plans/components/plans-page.tsx'

export const Route = createFileRoute('/plans')({ component: PlansPage })
