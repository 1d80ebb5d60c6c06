export {
  closeAllModals,
  closeModal,
  modalStack,
  openModal,
  useModalStack,
  type ModalName,
} from './modal-stack.ts'
export { LoadingDots } from './loading-dots.tsx'
export { ModalFrame } from './modal-frame.tsx'
export { buttonDanger, buttonPrimary, buttonSecondary } from './button-styles.ts'
export { BrandMark } from './brand-mark.tsx'
export { LanguagePicker } from './language-picker.tsx'
export { PageAvatar, UserAvatar } from './page-avatar.tsx'
export { PathLink } from './path-link.tsx'
