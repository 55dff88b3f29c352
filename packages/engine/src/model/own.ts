/**
 * Sets an own property, also for the key `__proto__`, which plain assignment would treat as the
 * prototype: names in API descriptions are data and may be anything.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  else record[key] = value
}
