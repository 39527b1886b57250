/**
 * The association-rule thresholds (docs/recommendations.md, "Thresholds"), read from the environment
 * at start (README.md, "Configuration"). A rule X → Y is kept when all hold:
 *
 * - support(X ∪ Y) = orders holding both / delivered orders ≥ `minSupport` (Agrawal & Srikant 1994,
 *   "Fast Algorithms for Mining Association Rules": minimum support; docs/recommendations.md, "Thresholds");
 * - confidence(X → Y) = support(X ∪ Y) / support(X) ≥ `minConfidence` (ibid.: minimum confidence);
 * - lift(X → Y) = confidence(X → Y) / support(Y) ≥ `minLift` (Brin, Motwani, Ullman & Tsur 1997,
 *   "Dynamic Itemset Counting", where it is called interest; Tan, Steinbach & Kumar, "Introduction to Data Mining", chapter "Association Analysis"): above 1 the two are bought together more often than chance;
 * - orders holding both ≥ `minPairOrders`, so one shopper's one basket never makes a rule.
 */

export interface AssociationThresholds {
  /** Least support, a fraction of delivered orders (`RECOMMEND_MIN_SUPPORT`, default 0.01). */
  minSupport: number
  /** Least confidence, a fraction (`RECOMMEND_MIN_CONFIDENCE`, default 0.1). */
  minConfidence: number
  /** Least lift (`RECOMMEND_MIN_LIFT`, default 1.2). */
  minLift: number
  /** Least number of delivered orders holding both products (`RECOMMEND_MIN_PAIR_ORDERS`, default 2). */
  minPairOrders: number
}

/** The defaults of docs/recommendations.md, "Thresholds". */
export const DEFAULT_ASSOCIATION_THRESHOLDS: AssociationThresholds = {
  minSupport: 0.01,
  minConfidence: 0.1,
  minLift: 1.2,
  minPairOrders: 2,
}

/**
 * Reads the thresholds from `env`; unset or empty is the default.
 * @throws Error at start on a fraction outside (0, 1], a lift outside (0, 1000] or a count outside 1-100000
 */
export function parseAssociationThresholds(env: NodeJS.ProcessEnv): AssociationThresholds {
  const read = (name: string, fallback: number, min: number, max: number, whole = false): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const value = Number(raw)
    if (!/^\d+(\.\d+)?$/.test(raw) || !(value > min) || value > max || (whole && !Number.isInteger(value)))
      throw new Error(`${name} must be ${whole ? 'a whole number' : 'a number'} above ${min} and at most ${max}, got "${raw}"`)
    return value
  }
  const d = DEFAULT_ASSOCIATION_THRESHOLDS
  return {
    minSupport: read('RECOMMEND_MIN_SUPPORT', d.minSupport, 0, 1),
    minConfidence: read('RECOMMEND_MIN_CONFIDENCE', d.minConfidence, 0, 1),
    minLift: read('RECOMMEND_MIN_LIFT', d.minLift, 0, 1000),
    minPairOrders: read('RECOMMEND_MIN_PAIR_ORDERS', d.minPairOrders, 0, 100_000, true),
  }
}
