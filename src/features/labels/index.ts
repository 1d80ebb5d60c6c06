/** The page's custom labels: in a chat, on the list (a filter per label, rows selected and labelled). */
export { CustomerLabels } from './components/customer-labels.tsx'
export { LabelFilter, SelectionBar } from './components/list-labels.tsx'
export { useLabelsByCustomer, usePageLabels } from './api/use-labels.ts'
