import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../../features/pages/components/home-page.tsx'
import { InstallCard } from '../../shared/install/install-offer.tsx'

function Home() {
  return (
    <>
      <InstallCard />
      <HomePage />
    </>
  )
}

export const Route = createFileRoute('/')({ component: Home })
