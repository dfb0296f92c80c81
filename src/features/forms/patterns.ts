/**
 * Field patterns run against every submission, so a pattern that can backtrack
 * catastrophically is refused when the form is saved. recheck analyses the regex
 * (exponential and polynomial blow-ups); a polynomial pattern is still accepted when the
 * field's maxLength bounds the input enough that the worst case stays small.
 */
export type PatternVerdict =
  | { ok: true }
  | { ok: false; code: 'invalid_pattern' | 'unsafe_pattern'; message: string };

const WORST_CASE_STEPS = 10_000_000;
const ANALYSIS_TIMEOUT_MS = 1000;
/** Analyses (not cached) one form save may start: each can take up to the timeout. */
export const MAX_NEW_PATTERNS_PER_SAVE = 20;
const CONCURRENT_ANALYSES = 2;

interface AnalysedPattern {
  compiles: boolean;
  error?: string;
  complexity: 'safe' | 'exponential' | { degree: number } | 'unknown';
}

const cache = new Map<string, Promise<AnalysedPattern>>();

/** The pattern as it is applied: to the whole value, with Unicode semantics. */
export function anchoredPattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}

export function isPatternKnown(pattern: string): boolean {
  return cache.has(pattern);
}

let running = 0;
const waiting: Array<() => void> = [];

async function withAnalysisSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_ANALYSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

async function analyse(pattern: string): Promise<AnalysedPattern> {
  try {
    // Alone first: `a)|(b` only compiles once wrapped, and would then escape the anchors.
    new RegExp(pattern, 'u');
    anchoredPattern(pattern);
  } catch (error) {
    return { compiles: false, error: (error as Error).message, complexity: 'unknown' };
  }
  try {
    // Loaded on first use: the analyser is large, and only form saves with patterns need it.
    const { check } = await import('recheck');
    const diagnostics = await withAnalysisSlot(() =>
      check(`^(?:${pattern})$`, 'u', { timeout: ANALYSIS_TIMEOUT_MS }),
    );
    if (diagnostics.status === 'safe') return { compiles: true, complexity: 'safe' };
    if (diagnostics.status === 'vulnerable') {
      const complexity = diagnostics.complexity;
      if (complexity.type === 'polynomial')
        return { compiles: true, complexity: { degree: complexity.degree } };
      return { compiles: true, complexity: 'exponential' };
    }
    return { compiles: true, complexity: 'unknown' };
  } catch {
    return { compiles: true, complexity: 'unknown' };
  }
}

export async function checkPattern(pattern: string, maxLength: number | undefined): Promise<PatternVerdict> {
  let analysed = cache.get(pattern);
  if (!analysed) {
    analysed = analyse(pattern);
    cache.set(pattern, analysed);
    if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
  }
  const result = await analysed;
  if (!result.compiles) {
    return {
      ok: false,
      code: 'invalid_pattern',
      message: `is not a valid regular expression: ${result.error}`,
    };
  }
  const { complexity } = result;
  if (complexity === 'safe') return { ok: true };
  if (
    typeof complexity === 'object' &&
    maxLength !== undefined &&
    maxLength ** complexity.degree <= WORST_CASE_STEPS
  ) {
    return { ok: true };
  }
  const why =
    complexity === 'exponential'
      ? 'can backtrack exponentially (nested or overlapping repetition such as (a+)+ or (a|a)*)'
      : typeof complexity === 'object'
        ? `can backtrack in O(n^${complexity.degree}) time; simplify it or set a small maxLength on the field`
        : 'is too complex to prove safe; simplify it';
  return { ok: false, code: 'unsafe_pattern', message: `is prone to catastrophic backtracking: it ${why}` };
}
