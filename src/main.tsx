/** Browser entry: locale, service worker registration, mount. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { detectLocale, LOCALE_SETTING } from './i18n/detect.ts'
import { activateLocale } from './i18n/activate.ts'
import { App } from './app/app.tsx'
import './app/app.css'

const locale = detectLocale(navigator.languages, localStorage.getItem(LOCALE_SETTING))
await activateLocale(locale)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
if (import.meta.env.PROD) void import('./features/pwa/register.ts').then((pwa) => pwa.registerServiceWorker())
