/**
 * A request starts in a task of its own where the platform gives one cheaply (`scheduler.yield`, in browsers):
 * a screen that mounts several queries at once sends them one task each, not all inside the task that drew
 * it, so no burst of sends holds the main thread. Elsewhere (Node) the request starts at once.
 */
export function ownTask(): Promise<void> | undefined {
  return (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.()
}
