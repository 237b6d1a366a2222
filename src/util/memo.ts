/** The value of `key` in `map`, made by `make` and kept there the first time it is asked for. */
export function remembered<K, V>(map: Map<K, V>, key: K, make: (key: K) => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make(key);
    map.set(key, value);
  }
  return value;
}
