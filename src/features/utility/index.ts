export { TemplatesEntry } from './templates-sheet.tsx'
