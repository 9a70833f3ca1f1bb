/**
 * An object that stands for one a test hook creates (or replaces) later: property reads go to the
 * current value, so a describe block can name it while it is still being declared.
 */
export function lateBound<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const value = current();
      if (value === undefined) throw new Error(`${what} is used outside the tests of its describe block`);
      const member: unknown = Reflect.get(value, key, value);
      return typeof member === 'function' ? member.bind(value) : member;
    },
  });
}
