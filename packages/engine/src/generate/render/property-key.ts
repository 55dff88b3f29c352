const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * A property name as written in an object literal or type: bare when it can be, quoted
 * otherwise. `__proto__` is always quoted: bare in an object literal it sets the prototype.
 */
export function propertyKey(name: string): string {
  return PLAIN_KEY.test(name) && name !== '__proto__' ? name : JSON.stringify(name)
}
