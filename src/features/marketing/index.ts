export { MarketingEntry } from './components/marketing-entry.tsx'
export { MarketingPanel, type MarketingDeps } from './components/marketing-sheet.tsx'
