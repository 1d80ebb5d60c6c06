import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '../../../features/account/components/account-pages.tsx'
import { requestSignOut } from '../../shell/sign-out.ts'

function Account() {
  return <AccountPage onSignOutHere={requestSignOut} />
}

export const Route = createFileRoute('/account/')({ component: Account })
