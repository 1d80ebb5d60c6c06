/** Browser entry: locale, client config, session check, mount. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { detectLocale, LOCALE_SETTING } from './i18n/detect.ts'
import { activateLocale } from './i18n/activate.ts'
import { loadClientConfig } from './shared/config/client-config.ts'
import { configureSession, initSession } from './shared/session/actions.ts'
import { createSocialSdk } from './shared/social/index.ts'
import { App } from './app/app.tsx'
import './app/app.css'

const locale = detectLocale(navigator.languages, localStorage.getItem(LOCALE_SETTING))
const [, config] = await Promise.all([activateLocale(locale), loadClientConfig()])
const sdk = createSocialSdk(config)
configureSession(config, { sdk })
// The SDK loads while the three dots show; the session is checked once it is ready (spec section 4).
void sdk
  .init()
  .catch((err: unknown) => console.error('social SDK failed to load', err))
  .then(() => initSession())

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
if (import.meta.env.PROD) void import('./features/pwa/register.ts').then((pwa) => pwa.registerServiceWorker())
