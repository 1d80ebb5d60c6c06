/** Which features must load as chunks of their own, and the verdict for each against a build. */

export interface SeparateFeature {
  name: string
  /** Matches the module ids that make up the feature. */
  modules: RegExp
}

export const separateFeatures: SeparateFeature[] = [
  { name: 'terms markdown', modules: /^(node_modules\/react-markdown\/|src\/features\/terms\/.*markdown)/ },
  { name: 'plans', modules: /^src\/features\/plans\// },
  { name: 'affiliates', modules: /^src\/features\/affiliates\// },
  { name: 'bulk wizard', modules: /^src\/features\/bulk\/components\/bulk-wizard/ },
]

export type Verdict =
  | { state: 'separate'; chunks: string[] }
  | { state: 'not-built'; chunks: [] }
  | { state: 'in-initial'; chunks: string[] }

/**
 * `modulesByFile`: the module ids of every JavaScript file of the build; `initialFiles`: the files loaded
 * before the login or home route renders. A feature found in none of the files is not built yet.
 */
export function judgeSeparation(
  feature: SeparateFeature,
  modulesByFile: Map<string, string[]>,
  initialFiles: Set<string>,
): Verdict {
  const chunks = [...modulesByFile]
    .filter(([, mods]) => mods.some((m) => feature.modules.test(m)))
    .map(([f]) => f)
  if (chunks.length === 0) return { state: 'not-built', chunks: [] }
  const initial = chunks.filter((f) => initialFiles.has(f))
  if (initial.length > 0) return { state: 'in-initial', chunks: initial }
  return { state: 'separate', chunks }
}
