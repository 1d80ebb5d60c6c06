import { createFileRoute } from '@tanstack/react-router'
import AffiliatesPage from '../../features/affiliates/components/affiliates-page.tsx'

export const Route = createFileRoute('/affiliates')({ component: AffiliatesPage })
