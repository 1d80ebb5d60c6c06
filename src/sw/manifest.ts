/** The web app manifest, written by vite-plugin-pwa at build time. */
import type { ManifestOptions } from 'vite-plugin-pwa'

export const manifest: Partial<ManifestOptions> = {
  name: 'Pagecast',
  short_name: 'Pagecast',
  description: "Your page's inbox and bulk messages, paced and tracked.",
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: '#4f46e5',
  background_color: '#f8fafc',
  categories: ['business', 'productivity'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  // Chromium's richer install dialog wants one of each form factor.
  screenshots: [
    {
      src: '/screenshots/narrow.png',
      sizes: '540x1080',
      type: 'image/png',
      form_factor: 'narrow',
      label: 'The inbox on a phone',
    },
    {
      src: '/screenshots/wide.png',
      sizes: '1280x800',
      type: 'image/png',
      form_factor: 'wide',
      label: 'Conversations and chat on a desktop',
    },
  ],
}
