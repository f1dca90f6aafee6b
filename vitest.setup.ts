// Test set-up shared by every file: fast-check runs from a fixed seed unless DSH_FC_SEED says
// otherwise, so a suite run is reproducible — a property that holds today cannot turn a later CI run
// red by drawing new cases. Exploring new cases is a separate, deliberate run:
// `DSH_FC_SEED=random npx vitest run …` (or a number, to replay the seed a failure printed).
import * as fc from 'fast-check'

const chosen = process.env['DSH_FC_SEED']
if (chosen !== 'random') {
  const seed = chosen === undefined || chosen === '' ? 20_261_202 : Number(chosen)
  if (!Number.isSafeInteger(seed)) throw new Error(`DSH_FC_SEED must be an integer or "random", got ${JSON.stringify(chosen)}`)
  fc.configureGlobal({ seed })
}
