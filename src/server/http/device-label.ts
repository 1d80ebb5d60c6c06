/**
 * A short name for the device a session was opened on, from the User-Agent captured at login: the browser
 * and the system ("Chrome · Android"), or what is known of them. Proper names only, so nothing to translate;
 * an unknown device is an empty label, which the app names in the user's language.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFBAN|\bFBAV/, 'Facebook'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  // HeadlessChrome too: no word boundary before it.
  [/Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bLinux\b/, 'Linux'],
]

const first = (ua: string, table: [RegExp, string][]) => table.find(([re]) => re.test(ua))?.[1]

export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return ''
  const browser = first(userAgent, BROWSERS)
  const system = first(userAgent, SYSTEMS)
  if (browser && system) return `${browser} · ${system}`
  return browser ?? system ?? ''
}
