import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '../../../features/account/components/account-pages.tsx'

export const Route = createFileRoute('/account/')({ component: AccountPage })
