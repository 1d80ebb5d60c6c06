import { createFileRoute } from '@tanstack/react-router'
import { BillingPage } from '../../../features/account/components/account-pages.tsx'

export const Route = createFileRoute('/account/billing')({ component: BillingPage })
