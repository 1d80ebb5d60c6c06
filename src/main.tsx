/**
 * Browser entry: locale, then the first screen at once; the client config and the session check follow.
 * It stays light (no router, query cache or schema library): see src/app/entry/root.tsx.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { detectLocale, LOCALE_SETTING } from './i18n/detect.ts'
import { activateLocale } from './i18n/activate.ts'
import { hasSessionCookie } from './shared/api/session-cookie.ts'
import { loadClientConfig } from './shared/config/client-config.ts'
import type { ClientConfig } from './core/contracts/client-config.ts'
import { configureSession, initSession } from './shared/session/actions.ts'
import { createSocialSdk } from './shared/social/index.ts'
import { captureInstallPrompt } from './shared/install/install-prompt.ts'
import { loadFullApp, Root } from './app/entry/root.tsx'
import { startServiceWorker } from './app/entry/service-worker.ts'
import { prepareSignedInStart } from './app/entry/prepare-start.ts'
import './app/app.css'

// The browser's install event can come before any screen: keep it for the app's own "Install app".
captureInstallPrompt()

// A returning user will need the full app: fetch it while the locale and the session load.
if (hasSessionCookie()) void loadFullApp().catch(() => undefined)

/** Neither the network nor a cached copy: wait for the connection (the dots keep showing). */
async function clientConfig(): Promise<ClientConfig> {
  try {
    return await loadClientConfig()
  } catch {
    await new Promise((resolve) => window.addEventListener('online', resolve, { once: true }))
    return clientConfig()
  }
}

const configReady = clientConfig()
const locale = detectLocale(navigator.languages, localStorage.getItem(LOCALE_SETTING))
await activateLocale(locale)
if (hasSessionCookie()) prepareSignedInStart(locale)
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <Root />
    </I18nProvider>
  </StrictMode>,
)

const config = await configReady
const sdk = createSocialSdk(config)
configureSession(config, { sdk })
// The SDK loads while the three dots show; the session is checked once it is ready
// (docs/product-rules.md#authentication).
void sdk
  .init()
  .catch((err: unknown) => console.error('social SDK failed to load', err))
  .then(() => initSession())

// The service worker follows the first real screen (src/app/entry/service-worker.ts).
if (import.meta.env.PROD) startServiceWorker()
