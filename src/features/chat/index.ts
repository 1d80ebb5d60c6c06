export { ChatView, type ChatCustomer, type ChatViewProps } from './components/chat-view.tsx'
