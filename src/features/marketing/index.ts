export { MarketingEntry } from './components/marketing-entry.tsx'
export { MarketingSheet, type MarketingDeps } from './components/marketing-sheet.tsx'
