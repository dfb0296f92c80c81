/**
 * A small seeded generator (a linear congruential one) for randomised tests: a failing sequence
 * runs again from its seed. Values in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}
