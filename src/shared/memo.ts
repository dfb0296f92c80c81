/**
 * A value made once per key and kept: for what is dear to make and asked for on every request
 * (a formatter per language, a language's direction, the page script's words). The keys are
 * few (a page speaks its form's languages); past `bound` the map is emptied all the same, so
 * an unforeseen stream of keys cannot grow it without end.
 */
export function keptPerKey<T, K = string>(make: (key: K) => T, bound = 64): (key: K) => T {
  const kept = new Map<K, T>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= bound) kept.clear();
      value = make(key);
      kept.set(key, value);
    }
    return value;
  };
}
