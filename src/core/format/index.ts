export { formatNumber, formatSize, formatUsd } from './numbers.ts'
export { cutText, graphemeCount, isolate } from './text.ts'
export { formatDateTime, formatLongDate, formatRelativeTime } from './dates.ts'
